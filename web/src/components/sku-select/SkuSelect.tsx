import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import type { Sku } from '@bolx/contracts';
import { useT } from '../../lib/i18n/use-t';
import { SEARCH_DEBOUNCE_MS } from '../data-table/FilterBar';
import { selectProps } from '../form/select-props';
import { useGetSkuOptionsQuery } from './sku-options-api';

export interface SkuSelectProps {
  /** From Form.Item, so the label names this field. */
  id?: string;
  value?: number;
  onChange?: (skuId: number | undefined, sku?: Sku) => void;
  /** Only this client's SKUs (an RO line's, a kit component's). */
  customerId?: number;
  /** Nothing to offer until a client is chosen (the RO form): disabled, saying so. */
  requireCustomer?: boolean;
  /** SKUs never offered (a kit itself). */
  exclude?: number[];
  /** The chosen SKU's label while it is not among the search results (editing). */
  initialLabel?: string;
  placeholder?: string;
  disabled?: boolean;
}

export const skuLabel = (s: Pick<Sku, 'skuCode' | 'description'>) => `${s.skuCode} — ${s.description}`;

/**
 * The one SKU dropdown: active SKUs searched on the server (GetAllSkus) as the user types, since clients have
 * thousands of SKUs; '{code} — {description}' options.
 */
export function SkuSelect({ id, value, onChange, customerId, requireCustomer, exclude = [], initialLabel, placeholder, disabled }: SkuSelectProps) {
  const t = useT();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const waiting = requireCustomer && !customerId;
  const { data, isFetching } = useGetSkuOptionsQuery({ customerId, searchQuery: search }, { skip: waiting });
  const skus = (data?.items ?? []).filter((s) => !exclude.includes(s.skuId));
  const options = skus.map((s) => ({ value: s.skuId, label: skuLabel(s) }));
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
      placeholder={waiting ? t('skuSelect.customerFirst') : (placeholder ?? t('skuSelect.placeholder'))}
      notFoundContent={isFetching ? <Spin size="small" /> : t('table.noRecord')}
      disabled={disabled || waiting}
      allowClear
    />
  );
}
