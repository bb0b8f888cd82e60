import { useMemo, useState, type Key, type ReactNode } from 'react';
import { Button, Popconfirm, Space, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { TabList } from '../../../components/tab-list/TabList';
import { useT } from '../../../lib/i18n/use-t';

export interface PartTabProps<T extends object> {
  /** One line above the table saying what the tab holds. */
  intro: ReactNode;
  columns: ColumnsType<T>;
  rows: T[] | undefined;
  rowKey: keyof T & string;
  loading: boolean;
  /** Shown only to users who may change the SKU. */
  canWrite: boolean;
  addLabel: string;
  onAdd: () => void;
  onEdit: (row: T) => void;
  /** No delete button without it (attributes and kits have their own rules). */
  onDelete?: (row: T) => Promise<unknown>;
  describe: (row: T) => string;
  /** The tree column for nested rows (packages). */
  childrenColumnName?: string;
  /** Replaces the table (e.g. the Kit tab of a SKU that is not a kit). */
  notice?: ReactNode;
  /** The tab's FormDrawer. */
  children?: ReactNode;
}

/**
 * One tab of the SKU detail (Kit, Package, Barcode, Attribute): the shared TabList with the parts' edit and
 * delete actions, and package levels shown as an expanded tree. The forms are FormDrawers.
 */
export function PartTab<T extends object>(props: PartTabProps<T>) {
  const t = useT();
  const { intro, columns, rows, rowKey, loading, canWrite, addLabel, onAdd, onEdit, onDelete, describe, childrenColumnName, notice, children } = props;
  // Nested rows (packages) start expanded, including levels added later; the user may collapse any of them.
  const [collapsed, setCollapsed] = useState<Set<Key>>(new Set());
  const parentKeys = useMemo(() => (childrenColumnName ? keysWithChildren(rows ?? [], rowKey, childrenColumnName) : []), [rows, rowKey, childrenColumnName]);
  const expandedRowKeys = parentKeys.filter((k) => !collapsed.has(k));
  const onExpand = (expanded: boolean, row: T) => {
    const key = row[rowKey] as Key;
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (expanded) next.delete(key);
      else next.add(key);
      return next;
    });
  };

  const actions: ColumnsType<T> = canWrite
    ? [{
        key: 'actions', title: t('table.actions'), width: 110, align: 'right',
        render: (_: unknown, row: T) => (
          <Space size={0}>
            <Tooltip title={t('skus.parts.edit', { name: describe(row) })}>
              <Button type="text" icon={<EditOutlined />} aria-label={t('skus.parts.edit', { name: describe(row) })} onClick={() => onEdit(row)} />
            </Tooltip>
            {onDelete && (
              <Popconfirm
                title={t('skus.parts.deleteTitle', { name: describe(row) })}
                okText={t('table.delete')}
                okButtonProps={{ danger: true }}
                cancelText={t('form.cancel')}
                onConfirm={() => onDelete(row)}
              >
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('skus.parts.deleteTitle', { name: describe(row) })} />
              </Popconfirm>
            )}
          </Space>
        ),
      }]
    : [];

  return (
    <TabList<T>
      className="bolx-sku-part"
      intro={intro}
      add={canWrite ? { label: addLabel, onClick: onAdd } : undefined}
      columns={[...columns, ...actions]}
      rows={rows}
      rowKey={rowKey}
      loading={loading}
      expandable={childrenColumnName ? { childrenColumnName, expandedRowKeys, onExpand, indentSize: 20 } : undefined}
      notice={notice}
    >
      {children}
    </TabList>
  );
}

/** The keys of every row (at any depth) that has child rows. */
function keysWithChildren<T extends object>(rows: T[], rowKey: keyof T, childrenColumnName: string): Key[] {
  return rows.flatMap((row) => {
    const children = (row as Record<string, unknown>)[childrenColumnName] as T[] | undefined;
    return children?.length ? [row[rowKey] as Key, ...keysWithChildren(children, rowKey, childrenColumnName)] : [];
  });
}
