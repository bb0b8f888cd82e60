import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { EditOutlined, WarningOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import type { Sku } from '@bolx/contracts';
import { DataTablePage, type ListQueryHook } from '../../../components/data-table/DataTablePage';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { useCanWrite } from '../../../lib/use-can-write';
import { useT } from '../../../lib/i18n/use-t';
import { SkuDrawer } from '../components/SkuDrawer';
import { formatDimensions, formatWeight } from '../sku-format';
import { customerScope, toSkuListRequest, withoutSingleChoice } from '../sku-list-args';
import { SKU_EXCEL_PATH, useGetSkuFilterLabelsQuery, useGetSkusQuery } from '../skus-api';

const useSkuList: ListQueryHook<Sku> = (args, options) => useGetSkusQuery(toSkuListRequest(args), options);

/** /SKU: the client's SKUs with filters, search, paging and the Excel download; add and edit for staff. */
export default function SkuListPage() {
  const t = useT();
  const navigate = useNavigate();
  const canWrite = useCanWrite('SKU');
  const drawer = useFormDrawer<Sku>();
  const { data: filterLabels = [] } = useGetSkuFilterLabelsQuery();
  const filters = useMemo(() => withoutSingleChoice(filterLabels), [filterLabels]);
  const open = (sku: Sku) => navigate(`/SKU?skuid=${sku.skuId}`);

  const columns = useMemo<ColumnsType<Sku>>(() => [
    {
      key: 'skuCode', title: t('skus.col.skuCode'), dataIndex: 'skuCode', sorter: true, fixed: 'left',
      render: (code: string, sku) => <Link to={`/SKU?skuid=${sku.skuId}`}>{code}</Link>,
    },
    { key: 'description', title: t('skus.col.description'), dataIndex: 'description', sorter: true, ellipsis: true, width: 240 },
    { key: 'customerName', title: t('skus.col.customer'), dataIndex: 'customerName' },
    { key: 'category', title: t('skus.col.category'), dataIndex: 'category', sorter: true, render: (c: string | null) => c ?? '—' },
    { key: 'uom', title: t('skus.col.uom'), dataIndex: 'uom' },
    { key: 'upc', title: t('skus.col.upc'), dataIndex: 'upc', render: (u: string | null) => u ?? '—' },
    { key: 'dimensions', title: t('skus.col.lwh'), render: (_, s) => formatDimensions(s, false) },
    { key: 'weight', title: t('skus.col.weight'), render: (_, s) => formatWeight(s.weightKg) },
    {
      key: 'flags', title: t('skus.col.type'),
      render: (_, s) => (
        <Space size={4}>
          {s.iskititem && <Tag color="purple">{t('skus.kit')}</Tag>}
          {s.isHazmat && (
            <Tooltip title={`${s.unNumber ?? ''} · ${t('skus.field.hazmatClass')} ${s.hazmatClass ?? ''}${s.packingGroup ? ` · PG ${s.packingGroup}` : ''}`}>
              <Tag color="orange" icon={<WarningOutlined />}>{s.unNumber}</Tag>
            </Tooltip>
          )}
          {!s.iskititem && !s.isHazmat && <Typography.Text type="secondary">—</Typography.Text>}
        </Space>
      ),
    },
    { key: 'isActive', title: t('skus.col.status'), dataIndex: 'isActive', render: (a: boolean) => <StatusTag active={a} /> },
    ...(canWrite
      ? [{
          key: 'actions', title: t('table.actions'), fixed: 'right' as const, width: 80,
          render: (_: unknown, s: Sku) => (
            <Tooltip title={t('skus.edit', { code: s.skuCode })}>
              <Button type="text" icon={<EditOutlined />} aria-label={t('skus.edit', { code: s.skuCode })} onClick={() => drawer.openEdit(s)} />
            </Tooltip>
          ),
        }]
      : []),
  // eslint-disable-next-line react-hooks/exhaustive-deps
  ], [t, canWrite]);

  return (
    <DataTablePage<Sku>
      title={t('skus.title')}
      subtitle={t('skus.subtitle')}
      columns={columns}
      rowKey="skuId"
      useList={useSkuList}
      filters={filters}
      searchPlaceholder={t('skus.searchPlaceholder')}
      scopeFilters={customerScope}
      excel={{ url: SKU_EXCEL_PATH, fileName: 'skus.xlsx' }}
      onAdd={canWrite ? drawer.openCreate : undefined}
      addLabel={t('skus.add')}
    >
      <SkuDrawer target={drawer.target} onClose={drawer.close} onSaved={(sku, created) => created && open(sku)} />
    </DataTablePage>
  );
}
