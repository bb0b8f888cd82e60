import { useCallback } from 'react';
import type { ScanKind } from '@bolx/contracts';
import { useT } from '../../lib/i18n/use-t';
import { pickMatch, scanMessage, type MatchOf } from './scan-match';
import { useLazyResolveScanQuery } from './scan-api';

export type ScanResult<K extends ScanKind> =
  | { match: MatchOf<K>; error?: undefined; unknown?: undefined }
  /** `unknown`: nothing in the warehouse (in the caller's scope) has the code, so a field may say it its own way. */
  | { match?: undefined; error: string; unknown?: boolean };

/**
 * Resolves a scanned or typed code on the server and picks the match a field wants, or the message to show at
 * the field: an unknown code, another kind of code, several candidates, an inactive SKU or location.
 */
export function useScan() {
  const t = useT();
  const [trigger] = useLazyResolveScanQuery();
  return useCallback(
    async <K extends ScanKind>(req: { warehouseId?: number; customerId?: number; code: string }, want: readonly K[]): Promise<ScanResult<K>> => {
      const code = req.code.trim();
      if (!code) return { error: t('scan.empty') };
      if (!req.warehouseId) return { error: t('scan.chooseWarehouse') };
      const answer = await trigger({ warehouseId: req.warehouseId, customerId: req.customerId || undefined, code }, false);
      if (answer.error) {
        const status = 'status' in answer.error ? answer.error.status : undefined;
        return { error: t(status === 404 ? 'scan.unknown' : status === 403 ? 'scan.forbidden' : 'scan.failed', { code }), unknown: status === 404 };
      }
      if (!answer.data) return { error: t('scan.failed', { code }) };
      const outcome = pickMatch(answer.data, want);
      return outcome.ok ? { match: outcome.match } : { error: scanMessage(t, outcome.message) };
    },
    [t, trigger],
  );
}
