import { useState, type KeyboardEvent } from 'react';
import { Input, Typography } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import type { ScanKind } from '@bolx/contracts';
import { useT } from '../../lib/i18n/use-t';
import type { MatchOf } from './scan-match';
import { useScan } from './use-scan';
import './scan.css';

export interface ScanFieldProps<K extends ScanKind> {
  warehouseId?: number;
  /** The form's client: a code two clients use resolves to this one's. */
  customerId?: number;
  /** The kinds this field takes, e.g. ['sku', 'location', 'pallet']. */
  want: readonly K[];
  /** Fills the form from the match; a returned text refuses it (shown at the field, nothing else changes). */
  onMatch: (match: MatchOf<K>) => string | void;
  label?: string;
  placeholder?: string;
  autoFocus?: boolean;
}

/**
 * A scan box: a hardware scanner types the code and Enter. The code is resolved on the server; a match fills the
 * form and the box empties for the next scan; a wrong scan says why under the box and changes nothing else.
 */
export function ScanField<K extends ScanKind>({ warehouseId, customerId, want, onMatch, label, placeholder, autoFocus }: ScanFieldProps<K>) {
  const t = useT();
  const scan = useScan();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const onKeyDown = async (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    // Enter belongs to the scan, never to the form around it.
    e.preventDefault();
    e.stopPropagation();
    if (busy) return;
    setBusy(true);
    try {
      const result = await scan({ warehouseId, customerId, code }, want);
      const refused = result.error ?? onMatch(result.match);
      setError(refused || undefined);
      if (!refused) setCode('');
    } finally {
      setBusy(false);
    }
  };

  const name = label ?? t('scan.label');
  return (
    <div className="bolx-scan">
      <Input
        aria-label={name}
        prefix={<ScanOutlined />}
        value={code}
        status={error ? 'error' : undefined}
        autoFocus={autoFocus}
        autoComplete="off"
        // Codes resolve within a warehouse: until one is chosen the box says so, instead of refusing every scan.
        disabled={!warehouseId}
        placeholder={warehouseId ? placeholder ?? t('scan.placeholder') : t('scan.chooseWarehouse')}
        onChange={(e) => { setCode(e.target.value); setError(undefined); }}
        onKeyDown={(e) => { void onKeyDown(e); }}
        suffix={busy ? <Typography.Text type="secondary">…</Typography.Text> : <span />}
      />
      {error && <Typography.Text type="danger" role="alert" className="bolx-scan__error">{error}</Typography.Text>}
    </div>
  );
}
