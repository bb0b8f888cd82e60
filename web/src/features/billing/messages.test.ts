import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import { MESSAGES } from '../../lib/i18n/catalog';
import './messages';

const source = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
/** The message ids a screen asks for: t('…') with a literal id, and the anomaly kinds' t(`billing.audit.anomaly.${kind}`). */
const idsOf = (text: string) => [...text.matchAll(/\bt\('([\w.-]+)'/g)].map((m) => m[1]);

describe('billing summary and invoice audit texts', () => {
  it('come from the catalogue: every id the two screens ask for is there', () => {
    for (const file of ['./pages/BillingSummaryPage.tsx', './pages/InvoiceAuditPage.tsx']) {
      const ids = idsOf(source(file));
      expect(ids.length, file).toBeGreaterThan(10);
      expect(ids.filter((id) => !(id in MESSAGES)), file).toEqual([]);
    }
    for (const kind of ['no-rate', 'zero-rate', 'swing', 'stored-unbilled']) expect(MESSAGES[`billing.audit.anomaly.${kind}`]).toBeTruthy();
  });

  it('leave no English text written into the screens', () => {
    for (const file of ['./pages/BillingSummaryPage.tsx', './pages/InvoiceAuditPage.tsx']) {
      const text = source(file);
      // Quoted titles, labels, placeholders and JSX text of English words, outside t(): none.
      expect(text.match(/(title|label|placeholder|description|message|aria-label)(:\s*|=)['"][A-Z][a-z]/g) ?? [], file).toEqual([]);
      expect(text.match(/>\s*[A-Z][a-z]+( [a-z]+)+\s*</g) ?? [], file).toEqual([]);
    }
  });

  it('fill their values in', () => {
    const intl = createIntl({ locale: 'en-US', messages: MESSAGES });
    expect(intl.formatMessage({ id: 'billing.summary.thisPeriod' }, { from: '2025-03-01', to: '2025-03-31' })).toBe('This period (2025-03-01 – 2025-03-31)');
    expect(intl.formatMessage({ id: 'billing.audit.against' }, { number: 'INV-000001', from: '2025-02-01', to: '2025-02-28' })).toBe('Against INV-000001 (2025-02-01 – 2025-02-28)');
  });
});
