import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { SEARCH_DEBOUNCE_MS } from '../../../components/data-table/FilterBar';
import { selectProps } from '../../../components/form/select-props';
import { useT } from '../../../lib/i18n/use-t';
import { useGetInboundSkuOptionsQuery } from '../inbound-api';

export interface RoSkuSelectProps {
  id?: string;
  value?: number;
  onChange?: (skuId: number | undefined) => void;
  customerId?: number;
  /** The line's SKU label while it is not among the search results (editing an RO). */
  initialLabel?: string;
  disabled?: boolean;
}

/** An RO line's SKU: the client's active SKUs, searched on the server as the user types (clients have thousands). */
export function RoSkuSelect({ id, value, onChange, customerId, initialLabel, disabled }: RoSkuSelectProps) {
  const t = useT();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const { data, isFetching } = useGetInboundSkuOptionsQuery({ customerId: customerId ?? 0, searchQuery: search }, { skip: !customerId });
  const options = (data?.items ?? []).map((s) => ({ value: s.skuId, label: `${s.skuCode} — ${s.description}` }));
  if (value != null && initialLabel && !options.some((o) => o.value === value)) options.unshift({ value, label: initialLabel });
  return (
    <Select
      {...selectProps}
      id={id}
      filterOption={false}
      onSearch={setText}
      value={value}
      onChange={onChange}
      options={options}
      placeholder={customerId ? t('inbound.placeholders.sku') : t('inbound.placeholders.customerFirst')}
      notFoundContent={isFetching ? <Spin size="small" /> : t('table.noRecord')}
      disabled={disabled || !customerId}
      allowClear
    />
  );
}
