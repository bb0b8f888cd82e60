import type { ReactNode } from 'react';
import { Button, Empty, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useT } from '../../lib/i18n/use-t';
import './tab-list.css';

export interface TabListProps<T extends object> {
  /** One line above the table saying what the tab holds. */
  intro: ReactNode;
  /** The primary button beside it; none without it (a user who may not write). */
  add?: { label: string; onClick: () => void; icon?: ReactNode; disabled?: boolean };
  columns: ColumnsType<T>;
  rows: T[] | undefined;
  rowKey: keyof T & string;
  loading: boolean;
  /** Tree rows and the like (a SKU's package levels). */
  expandable?: TableProps<T>['expandable'];
  /** Replaces the table and the add button (say, the Kit tab of a SKU that is not a kit). */
  notice?: ReactNode;
  /** The tab's FormDrawer. */
  children?: ReactNode;
  className?: string;
}

/**
 * A tab of a detail view holding a short list of the record's parts (a SKU's barcodes, a client's documents
 * or carrier accounts): an intro and an add button above an unpaged table with 'No Record Found'. The row
 * actions are the caller's columns; the forms are FormDrawers passed as children.
 */
export function TabList<T extends object>({ intro, add, columns, rows, rowKey, loading, expandable, notice, children, className }: TabListProps<T>) {
  const t = useT();
  return (
    <div className={['bolx-tab-list', className].filter(Boolean).join(' ')}>
      <div className="bolx-tab-list__bar">
        <Typography.Text type="secondary">{intro}</Typography.Text>
        {add && !notice && (
          <Button type="primary" icon={add.icon ?? <PlusOutlined />} onClick={add.onClick} disabled={add.disabled}>
            {add.label}
          </Button>
        )}
      </div>
      {notice ?? (
        <Table<T>
          size="middle"
          rowKey={rowKey}
          columns={columns}
          dataSource={rows ?? []}
          loading={loading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          expandable={expandable}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('table.noRecord')} /> }}
        />
      )}
      {children}
    </div>
  );
}
