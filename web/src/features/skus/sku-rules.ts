import type { FormRule } from 'antd';
import { barcodeProblem, gtinProblem, UN_NUMBER, type BarcodeType } from '@bolx/contracts';
import type { Translate } from '../../lib/i18n/use-t';

/**
 * The SKU screens' field rules on top of lib/form-rules: the checks are contracts' own (the server runs the
 * same ones), so the form refuses exactly what the server would, with the same words.
 */
export const skuRules = (t: Translate) => ({
  /** A barcode for the type chosen in `typeField`: GTIN/UPC/EAN lengths and check digit, else printable text. */
  barcode: (typeField: string): FormRule => ({ getFieldValue }) => ({
    validator: (_rule, value: string | undefined) => {
      const code = value?.trim();
      const type = getFieldValue(typeField) as BarcodeType | undefined;
      if (!code || !type) return Promise.resolve();
      const problem = barcodeProblem(type, code);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  }),
  /** An optional GTIN (UPC on the SKU, GTIN on a package level). */
  gtin: (): FormRule => ({
    validator: (_rule, value: string | undefined) => {
      const code = value?.trim();
      const problem = code ? gtinProblem(code) : null;
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  }),
  unNumber: (): FormRule => ({
    validator: (_rule, value: string | undefined) =>
      !value?.trim() || UN_NUMBER.test(value.trim().toUpperCase()) ? Promise.resolve() : Promise.reject(new Error(t('skus.validation.unNumber'))),
  }),
  /** A dimension or weight: more than 0 (antd InputNumber gives a number or null). */
  measure: (label: string): FormRule => ({
    validator: (_rule, value: number | null | undefined) =>
      value == null || value > 0 ? Promise.resolve() : Promise.reject(new Error(t('skus.validation.positive', { label }))),
  }),
  /** Max quantity at least the min quantity. */
  atLeast: (field: string): FormRule => ({ getFieldValue }) => ({
    validator: (_rule, value: number | null | undefined) => {
      const min = getFieldValue(field) as number | null | undefined;
      return value == null || min == null || value >= min ? Promise.resolve() : Promise.reject(new Error(t('skus.validation.maxQty')));
    },
  }),
});

/** Whether a barcode type is one of the check-digit validated GTIN family (for the form's hint). */
export const isGtinType = (type: BarcodeType | undefined) => type != null && ['UPC', 'EAN', 'GTIN-8', 'GTIN-14', 'GTIN'].includes(type);
