import { useEffect, useState } from 'react';
import { Button, DatePicker, Input, Select } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { FilterLabel } from '@bolx/contracts';
import { useT } from '../../lib/i18n/use-t';
import { selectProps } from '../form/select-props';
import { booleanFilterOption, booleanFilterValue, type FilterValue, type FilterValues } from './list-args';

/** Typing in the search box waits this long before the list is asked again (spec section 9: loading delay 300 ms). */
export const SEARCH_DEBOUNCE_MS = 300;

export interface FilterBarProps {
  filters: FilterLabel[];
  values: FilterValues;
  onFilter: (key: string, value: FilterValue | undefined) => void;
  /** Shown as 'Search {placeholder}'; no search box without it. */
  searchPlaceholder?: string;
  searchQuery: string;
  onSearch: (query: string) => void;
  onClear: () => void;
}

/** The list's filter bar: one control per filter definition, the search box, and a clear button. */
export function FilterBar({ filters, values, onFilter, searchPlaceholder, searchQuery, onSearch, onClear }: FilterBarProps) {
  const t = useT();
  const [text, setText] = useState(searchQuery);
  useEffect(() => setText(searchQuery), [searchQuery]);
  useEffect(() => {
    if (text.trim() === searchQuery) return;
    const timer = setTimeout(() => onSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, searchQuery, onSearch]);

  const anySet = searchQuery !== '' || Object.values(values).some((v) => v !== undefined && v !== '');

  return (
    <div className="bolx-table__filters">
      {searchPlaceholder !== undefined && (
        <Input
          className="bolx-table__search"
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('table.search', { placeholder: searchPlaceholder })}
          aria-label={t('table.search', { placeholder: searchPlaceholder })}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onPressEnter={() => onSearch(text)}
        />
      )}
      {filters.map((filter) => (
        <FilterControl key={filter.key} filter={filter} value={values[filter.key]} onChange={(v) => onFilter(filter.key, v)} />
      ))}
      {anySet && (
        <Button type="link" onClick={onClear}>
          {t('table.clearFilters')}
        </Button>
      )}
    </div>
  );
}

function FilterControl({ filter, value, onChange }: { filter: FilterLabel; value: FilterValue | undefined; onChange: (v: FilterValue | undefined) => void }) {
  const t = useT();
  const placeholder = filter.placeholder ?? filter.label;
  switch (filter.type) {
    case 'select':
      return (
        <Select
          {...selectProps}
          className="bolx-table__filter"
          aria-label={filter.label}
          allowClear
          placeholder={placeholder}
          value={value as string | number | undefined}
          options={filter.options ?? []}
          popupMatchSelectWidth={false}
          onChange={(v: string | number | undefined) => onChange(v)}
        />
      );
    case 'boolean':
      // Yes/No by default; a screen may relabel or narrow them with options valued 'true'/'false'.
      return (
        <Select
          {...selectProps}
          className="bolx-table__filter"
          aria-label={filter.label}
          allowClear
          placeholder={placeholder}
          value={booleanFilterOption(value)}
          options={filter.options?.length ? filter.options : [{ label: t('table.yes'), value: 'true' }, { label: t('table.no'), value: 'false' }]}
          popupMatchSelectWidth={false}
          onChange={(v: string | undefined) => onChange(booleanFilterValue(v))}
        />
      );
    case 'date':
      return (
        <DatePicker
          className="bolx-table__filter"
          aria-label={filter.label}
          placeholder={placeholder}
          value={typeof value === 'string' && value ? dayjs(value) : null}
          onChange={(d) => onChange(d ? d.format('YYYY-MM-DD') : undefined)}
        />
      );
    default:
      return (
        <Input
          className="bolx-table__filter"
          aria-label={filter.label}
          allowClear
          placeholder={placeholder}
          defaultValue={typeof value === 'string' ? value : ''}
          onPressEnter={(e) => onChange(e.currentTarget.value.trim() || undefined)}
          onBlur={(e) => onChange(e.currentTarget.value.trim() || undefined)}
        />
      );
  }
}
