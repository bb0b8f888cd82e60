import { useState } from 'react';
import { Space, Tag } from 'antd';
import type { ListControls } from '../../../components/data-table/DataTablePage';
import { ScanField } from '../../../components/scan/ScanField';
import type { MatchOf } from '../../../components/scan/scan-match';
import { useT } from '../../../lib/i18n/use-t';
import { scanFilter } from '../scan-filters';
import '../inventory.css';

/**
 * The stock list's scan box: a scanned SKU (or package of it) or location narrows the list to it, a pallet
 * searches for it; each narrowing shows as a tag that clears it.
 */
export function StockScanBar({ list, warehouseId, customerId }: { list: ListControls; warehouseId: number; customerId: number }) {
  const t = useT();
  const [labels, setLabels] = useState<Record<string, string>>({});
  const onMatch = (m: MatchOf<'sku' | 'location' | 'pallet'>) => {
    const { key, value, label } = scanFilter(m);
    if (key === 'searchQuery') list.search(String(value));
    else list.setFilter(key, value);
    setLabels((l) => ({ ...l, [key]: label }));
    return undefined;
  };
  const clear = (key: string) => {
    if (key === 'searchQuery') list.search('');
    else list.setFilter(key, undefined);
    setLabels(({ [key]: _gone, ...rest }) => rest);
  };
  const active = Object.entries(labels).filter(([key]) => (key === 'searchQuery' ? list.searchQuery !== '' : list.filters[key] !== undefined));
  return (
    <div className="bolx-inv-scanbar">
      <ScanField warehouseId={warehouseId || undefined} customerId={customerId || undefined} want={['sku', 'location', 'pallet'] as const}
        placeholder={t('inventory.move.scanHint')} onMatch={onMatch} />
      {active.length > 0 && (
        <Space wrap>
          {active.map(([key, label]) => (
            <Tag key={key} closable onClose={() => clear(key)}>{t('inventory.move.filteredBy', { what: label })}</Tag>
          ))}
        </Space>
      )}
    </div>
  );
}
