import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { SEARCH_DEBOUNCE_MS } from '../../../components/data-table/FilterBar';
import { selectProps } from '../../../components/form/select-props';
import { useT } from '../../../lib/i18n/use-t';
import { useFindSkusQuery } from '../inventory-api';

/** A client's SKUs, searched on the server as the user types (or scans a SKU code). */
export function SkuSelect({ id, value, onChange, customerId, disabled }: {
  id?: string; value?: number; onChange?: (skuId: number | undefined) => void; customerId?: number; disabled?: boolean;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const { data, isFetching } = useFindSkusQuery({ customerId, search }, { skip: !customerId });
  return (
    <Select
      {...selectProps}
      id={id}
      showSearch
      filterOption={false}
      onSearch={setText}
      value={value}
      onChange={onChange}
      options={(data?.items ?? []).map((s) => ({ value: s.skuId, label: `${s.skuCode} — ${s.description}` }))}
      placeholder={t('inventory.fields.skuPlaceholder')}
      notFoundContent={isFetching ? <Spin size="small" /> : t('table.noRecord')}
      disabled={disabled || !customerId}
      allowClear
    />
  );
}
