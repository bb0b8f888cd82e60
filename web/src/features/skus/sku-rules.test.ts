import { describe, expect, it } from 'vitest';
import type { FormInstance, RuleObject } from 'antd/es/form';
import { skuRules } from './sku-rules';

const t = (id: string, values?: Record<string, string | number>) => (values ? `${id}:${JSON.stringify(values)}` : id);
const r = skuRules(t);

/** Runs an antd rule (object or function of the form) against a value, with the other fields' values. */
async function check(rule: ReturnType<typeof r.barcode>, value: unknown, fields: Record<string, unknown> = {}) {
  const form = { getFieldValue: (name: string) => fields[name] } as unknown as FormInstance;
  const object = (typeof rule === 'function' ? rule(form) : rule) as RuleObject;
  try {
    await object.validator!(object, value, () => undefined);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('SKU form rules', () => {
  it('refuses a UPC with a bad check digit, naming the expected digit', async () => {
    expect(await check(r.barcode('barcodeType'), '036000291452', { barcodeType: 'UPC' })).toBeNull();
    expect(await check(r.barcode('barcodeType'), '036000291453', { barcodeType: 'UPC' })).toBe('UPC check digit is wrong (expected 2)');
  });

  it('checks EAN-13 and GTIN lengths, and takes free text for Code 128', async () => {
    expect(await check(r.barcode('barcodeType'), '4006381333931', { barcodeType: 'EAN' })).toBeNull();
    expect(await check(r.barcode('barcodeType'), '400638133393', { barcodeType: 'EAN' })).toBe('EAN must be 13 digits long');
    expect(await check(r.barcode('barcodeType'), '12AB', { barcodeType: 'GTIN' })).toBe('GTIN must contain digits only');
    expect(await check(r.barcode('barcodeType'), 'ABC-123', { barcodeType: 'CODE128' })).toBeNull();
  });

  it('validates an optional GTIN only when one is given', async () => {
    expect(await check(r.gtin(), '')).toBeNull();
    expect(await check(r.gtin(), '96385074')).toBeNull();
    expect(await check(r.gtin(), '96385075')).toBe('GTIN check digit is wrong (expected 4)');
  });

  it('takes UN numbers as UN and four digits', async () => {
    expect(await check(r.unNumber(), 'un1203')).toBeNull();
    expect(await check(r.unNumber(), 'UN12')).toBe('skus.validation.unNumber');
  });

  it('wants measures above 0 and max quantity at least the min', async () => {
    expect(await check(r.measure('Length'), 0)).toBe('skus.validation.positive:{"label":"Length"}');
    expect(await check(r.measure('Length'), null)).toBeNull();
    expect(await check(r.atLeast('minQty'), 5, { minQty: 10 })).toBe('skus.validation.maxQty');
    expect(await check(r.atLeast('minQty'), 10, { minQty: 10 })).toBeNull();
  });
});
