import type { ColumnsType } from 'antd/es/table';

/** The class of a column whose cells may wrap (data-table.css). */
export const TEXT_COLUMN_CLASS = 'bolx-table__text';

/**
 * Marks the columns that hold prose (names, descriptions: values with spaces) so their cells may wrap at the
 * spaces. Every other cell stays on one line, since a browser also breaks after a hyphen and would split codes
 * and dates ('BHC-1004', '2026-12-15'). Decided from the page's rows: a column of a plain field (string
 * `dataIndex`) is text when one of its values has a space.
 */
export function markTextColumns<T extends object>(columns: ColumnsType<T>, rows: readonly T[]): ColumnsType<T> {
  return columns.map((column) => {
    const field = 'dataIndex' in column && typeof column.dataIndex === 'string' ? column.dataIndex : undefined;
    if (!field || !rows.some((row) => /\s/.test(String((row as Record<string, unknown>)[field] ?? '').trim()))) return column;
    return { ...column, className: [column.className, TEXT_COLUMN_CLASS].filter(Boolean).join(' ') };
  });
}
