import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import type { Sku } from '@bolx/contracts';
import { SEARCH_DEBOUNCE_MS } from '../../../components/data-table/FilterBar';
import { selectProps } from '../../../components/form/select-props';
import { useT } from '../../../lib/i18n/use-t';
import { useGetSkusQuery } from '../skus-api';

export interface SkuPickerProps {
  /** From Form.Item, so the label names this field. */
  id?: string;
  value?: number;
  onChange?: (skuId: number | undefined, sku?: Sku) => void;
  /** Only this client's SKUs (kit components are the kit's client's). */
  customerId?: number;
  /** SKUs never offered (the kit itself). */
  exclude?: number[];
  /** The chosen SKU's label while it is not among the search results (editing). */
  initialLabel?: string;
  placeholder?: string;
  disabled?: boolean;
}

/** A searchable SKU dropdown that asks the server (GetAllSkus) as the user types: clients have thousands of SKUs. */
export function SkuPicker({ id, value, onChange, customerId, exclude = [], initialLabel, placeholder, disabled }: SkuPickerProps) {
  const t = useT();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const { data, isFetching } = useGetSkusQuery({
    filters: { ...(customerId ? { customerId } : {}), isActive: 'active' }, searchQuery: search, pageNumber: 1, pageSize: 20,
  });
  const skus = (data?.items ?? []).filter((s) => !exclude.includes(s.skuId));
  const options = skus.map((s) => ({ value: s.skuId, label: `${s.skuCode} — ${s.description}` }));
  if (value != null && initialLabel && !options.some((o) => o.value === value)) options.unshift({ value, label: initialLabel });

  return (
    <Select
      {...selectProps}
      id={id}
      filterOption={false}
      onSearch={setText}
      value={value}
      onChange={(v: number | undefined) => onChange?.(v, skus.find((s) => s.skuId === v))}
      options={options}
      placeholder={placeholder ?? t('skus.picker.placeholder')}
      notFoundContent={isFetching ? <Spin size="small" /> : t('table.noRecord')}
      disabled={disabled}
      allowClear
    />
  );
}
