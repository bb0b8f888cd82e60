import type { ScanKind, ScanMatch, ScanResolveResponse, ScanSku } from '@bolx/contracts';

export type Translate = (id: string, values?: Record<string, string | number>) => string;
export type MatchOf<K extends ScanKind> = Extract<ScanMatch, { kind: K }>;

/** A scan a field can use, or why not, as a message id and its values (translated by scanMessage). */
export type ScanOutcome<K extends ScanKind> =
  | { ok: true; match: MatchOf<K> }
  | { ok: false; message: { id: string; values: Record<string, string | number> } };

const fail = (id: string, values: Record<string, string | number>) => ({ ok: false as const, message: { id, values } });

/**
 * The one match of the kinds a field wants, or why the scan does not fit it: a code of another kind (a SKU
 * scanned into a location field), several candidates (a code two clients use: choose the client first; a pallet
 * split over locations), an inactive SKU or location.
 */
export function pickMatch<K extends ScanKind>(answer: ScanResolveResponse, want: readonly K[]): ScanOutcome<K> {
  const code = answer.code;
  const wanted: ScanMatch[] = answer.matches.filter((m) => (want as readonly ScanKind[]).includes(m.kind));
  if (wanted.length === 0) {
    const found = answer.matches[0];
    return fail('scan.wrongKind', { code, found: found ? found.kind : '', wanted: want.join('|') });
  }
  if (wanted.length > 1) {
    if (wanted.every((m) => m.kind === 'sku')) {
      return fail('scan.severalClients', { code, list: (wanted as ScanSku[]).map((s) => `${s.skuCode} (${s.customerName})`).join(', ') });
    }
    if (wanted.every((m) => m.kind === 'pallet')) {
      return fail('scan.palletSplit', { code, list: wanted.map((m) => (m.kind === 'pallet' ? m.locationCode : '')).join(', ') });
    }
    return fail('scan.ambiguous', { code, list: wanted.map(describe).join(', ') });
  }
  const match = wanted[0];
  if (match.kind === 'sku' && !match.isActive) return fail('scan.inactiveSku', { code, sku: match.skuCode });
  if (match.kind === 'location' && !match.isActive) return fail('scan.inactiveLocation', { code, location: match.locationCode });
  return { ok: true, match: match as MatchOf<K> };
}

function describe(m: ScanMatch): string {
  if (m.kind === 'sku') return m.skuCode;
  if (m.kind === 'location') return m.locationCode;
  return `${m.pallet} @ ${m.locationCode}`;
}

/** The text of a refused scan; kinds are named through 'scan.kind.{kind}'. */
export function scanMessage(t: Translate, message: { id: string; values: Record<string, string | number> }): string {
  const values = { ...message.values };
  if (message.id === 'scan.wrongKind') {
    values.found = t(`scan.kind.${String(values.found)}`);
    values.wanted = String(values.wanted).split('|').map((k) => t(`scan.kind.${k}`)).join(t('scan.or'));
  }
  return t(message.id, values);
}

/**
 * The quantity after scanning a SKU or one of its package levels: a scan adds the units it stands for (a case
 * of 12 adds 12), away from zero — on a negative quantity (an adjustment removing stock) it removes them. A scan
 * of another SKU than the one the quantity counts starts again at that scan's units.
 */
export function quantityAfterScan(current: number | null | undefined, unitsPerScan: number, sameSku: boolean): number {
  if (!sameSku || !current) return unitsPerScan;
  return current < 0 ? current - unitsPerScan : current + unitsPerScan;
}
