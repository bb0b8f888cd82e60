import { useMemo } from 'react';
import { Link } from 'react-router';
import { Button, Tag, Tooltip } from 'antd';
import { CheckCircleOutlined, ColumnHeightOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import type { DimensionRow, FilterLabel } from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { DataTablePage, type ListQueryHook } from '../../../components/data-table/DataTablePage';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { useT } from '../../../lib/i18n/use-t';
import { useCanWrite } from '../../../lib/use-can-write';
import { DimensionsDrawer } from '../components/DimensionsDrawer';
import { formatWeight } from '../sku-format';
import { customerScope, toDimensionListRequest, withoutSingleChoice } from '../sku-list-args';
import { useGetDimensionsQuery, useGetSkuFilterLabelsQuery } from '../skus-api';
import '../skus.css';

const useDimensionList: ListQueryHook<DimensionRow> = (args, options) => useGetDimensionsQuery(toDimensionListRequest(args), options);

const cm = (n: number | null) => (n == null ? '—' : `${n}`);
/** Cubic metres from centimetres, for the volume column. */
const volume = (r: DimensionRow) =>
  r.lengthCm == null || r.widthCm == null || r.heightCm == null ? '—' : `${((r.lengthCm * r.widthCm * r.heightCm) / 1_000_000).toFixed(4)} m³`;

/** /Dimensions: SKUs and their package levels with L×W×H and weight; staff capture the missing ones. */
export default function DimensionsPage() {
  const t = useT();
  const canWrite = useCanWrite('Dimensions');
  const drawer = useFormDrawer<DimensionRow>();
  const headerCustomer = useAppSelector((s) => s.header.clientsSelectedIDs);
  const { data: skuFilters = [] } = useGetSkuFilterLabelsQuery();

  const filters = useMemo<FilterLabel[]>(() => [
    ...withoutSingleChoice(skuFilters.filter((f) => f.key === 'customerId')),
    { key: 'kind', label: t('dimensions.filter.level'), type: 'select', options: [
      { label: t('dimensions.kind.sku'), value: 'sku' }, { label: t('dimensions.kind.package'), value: 'package' },
    ] },
    { key: 'missingOnly', label: t('dimensions.filter.missing'), type: 'boolean', options: [
      { label: t('dimensions.filter.missingYes'), value: 'true' },
    ] },
  ], [skuFilters, t]);

  const columns = useMemo<ColumnsType<DimensionRow>>(() => [
    { key: 'skuCode', title: t('skus.col.skuCode'), dataIndex: 'skuCode', sorter: true, fixed: 'left',
      render: (code: string, r) => <Link to={`/SKU?skuid=${r.skuId}&tab=${r.kind === 'sku' ? 'barcode' : 'package'}`}>{code}</Link> },
    { key: 'description', title: t('skus.col.description'), dataIndex: 'description', ellipsis: true },
    { key: 'customerName', title: t('skus.col.customer'), dataIndex: 'customerName', sorter: true },
    { key: 'packageName', title: t('dimensions.col.level'), dataIndex: 'packageName', sorter: true,
      render: (name: string | null, r) => (r.kind === 'sku' ? <Tag color="blue">{t('dimensions.kind.sku')}</Tag> : <Tag>{name}</Tag>) },
    { key: 'lengthCm', title: t('dimensions.col.length'), dataIndex: 'lengthCm', align: 'right', render: cm },
    { key: 'widthCm', title: t('dimensions.col.width'), dataIndex: 'widthCm', align: 'right', render: cm },
    { key: 'heightCm', title: t('dimensions.col.height'), dataIndex: 'heightCm', align: 'right', render: cm },
    { key: 'weightKg', title: t('skus.col.weight'), dataIndex: 'weightKg', align: 'right', sorter: true, render: formatWeight },
    { key: 'volume', title: t('dimensions.col.volume'), align: 'right', render: (_, r) => volume(r) },
    { key: 'missingDimensions', title: t('skus.col.status'), dataIndex: 'missingDimensions',
      render: (missing: boolean) => (missing
        ? <Tag color="warning" icon={<ExclamationCircleOutlined />}>{t('dimensions.missing')}</Tag>
        : <Tag color="success" icon={<CheckCircleOutlined />}>{t('dimensions.complete')}</Tag>) },
    ...(canWrite ? [{
      key: 'actions', title: t('table.actions'), fixed: 'right' as const,
      render: (_: unknown, r: DimensionRow) => (
        <Tooltip title={t('dimensions.captureFor', { name: r.packageName ? `${r.skuCode} · ${r.packageName}` : r.skuCode })}>
          <Button size="small" icon={<ColumnHeightOutlined />} onClick={() => drawer.openEdit(r)}>{t('dimensions.captureShort')}</Button>
        </Tooltip>
      ),
    }] : []),
  // eslint-disable-next-line react-hooks/exhaustive-deps
  ], [t, canWrite]);

  return (
    <DataTablePage<DimensionRow>
      title={t('dimensions.title')}
      subtitle={t('dimensions.subtitle')}
      columns={columns}
      rowKey="uniqueId"
      useList={useDimensionList}
      filters={filters}
      searchPlaceholder={t('dimensions.searchPlaceholder')}
      scopeFilters={customerScope}
      onAdd={canWrite ? drawer.openCreate : undefined}
      addLabel={t('dimensions.capture')}
    >
      <DimensionsDrawer target={drawer.target} onClose={drawer.close} customerId={headerCustomer} />
    </DataTablePage>
  );
}
