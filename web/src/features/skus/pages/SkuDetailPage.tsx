import type { Sku } from '@bolx/contracts';
import { Alert, Badge, Button, Card, Descriptions, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, EditOutlined, WarningOutlined } from '@ant-design/icons';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { toApiError } from '../../../lib/api/api-error';
import { useT } from '../../../lib/i18n/use-t';
import { AttributeTab } from '../components/AttributeTab';
import { BarcodeTab } from '../components/BarcodeTab';
import { KitTab } from '../components/KitTab';
import { PackageTab } from '../components/PackageTab';
import { SkuDrawer } from '../components/SkuDrawer';
import { formatDimensions, formatWeight } from '../sku-format';
import { useGetAttributesQuery, useGetBarcodesQuery, useGetKitComponentsQuery, useGetPackagesQuery, useGetSkuQuery } from '../skus-api';

export const SKU_TABS = ['kit', 'package', 'barcode', 'attribute'] as const;
export type SkuTab = (typeof SKU_TABS)[number];

const yesNo = (t: (id: string) => string, b: boolean) => t(b ? 'table.yes' : 'table.no');

/** One SKU: its details and the Kit, Package, Barcode and Attribute tabs. */
export function SkuDetailPage({ skuId, tab, onTab, onBack, canWrite }: {
  skuId: number; tab: SkuTab | null; onTab: (tab: SkuTab) => void; onBack: () => void; canWrite: boolean;
}) {
  const t = useT();
  const drawer = useFormDrawer<Sku>();
  const { data: sku, isLoading, error } = useGetSkuQuery(skuId);
  // The tab labels carry their counts; the lists are small and each tab reads the same cached answer.
  const kits = useGetKitComponentsQuery(skuId, { skip: !sku?.iskititem });
  const packages = useGetPackagesQuery(skuId, { skip: !sku });
  const barcodes = useGetBarcodesQuery(skuId, { skip: !sku });
  const attributes = useGetAttributesQuery(skuId, { skip: !sku });

  const back = (
    <Button type="link" icon={<ArrowLeftOutlined />} onClick={onBack} className="bolx-sku__back">
      {t('skus.backToList')}
    </Button>
  );
  if (isLoading) return <div className="bolx-page">{back}<Card><Skeleton active paragraph={{ rows: 6 }} /></Card></div>;
  if (!sku) {
    const e = error ? toApiError(error) : null;
    return (
      <div className="bolx-page">
        {back}
        <Alert type="error" showIcon message={e?.status === 404 ? t('skus.notFound') : t('skus.loadError')} description={e?.details} />
      </div>
    );
  }

  const count = (n: number | undefined) => <Badge count={n ?? 0} showZero color={n ? '#1890ff' : '#bfbfbf'} size="small" className="bolx-sku__count" />;
  const label = (id: string, n: number | undefined) => <span>{t(id)} {count(n)}</span>;

  return (
    <div className="bolx-page bolx-sku">
      {back}
      <div className="bolx-table__titlebar">
        <div className="bolx-table__title">
          <Space wrap align="center">
            <Typography.Title level={3} className="bolx-sku__code">{sku.skuCode}</Typography.Title>
            <StatusTag active={sku.isActive} />
            {sku.iskititem && <Tag color="purple">{t('skus.kit')}</Tag>}
            {sku.isHazmat && <Tag color="orange" icon={<WarningOutlined />}>{t('skus.hazmat')}</Tag>}
          </Space>
          <div><Typography.Text type="secondary">{sku.description} · {sku.customerName}</Typography.Text></div>
        </div>
        {canWrite && (
          <Button icon={<EditOutlined />} onClick={() => drawer.openEdit(sku)}>
            {t('skus.editButton')}
          </Button>
        )}
      </div>

      <Card className="bolx-sku__details">
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3, xxl: 4 }}>
          <Descriptions.Item label={t('skus.field.customer')}>{sku.customerName}</Descriptions.Item>
          <Descriptions.Item label={t('skus.field.category')}>{sku.category ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('skus.field.uom')}>{sku.uom}</Descriptions.Item>
          <Descriptions.Item label={t('skus.field.upc')}>{sku.upc ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('skus.col.dimensions')}>{formatDimensions(sku)}</Descriptions.Item>
          <Descriptions.Item label={t('skus.field.weight')}>{formatWeight(sku.weightKg)}</Descriptions.Item>
          <Descriptions.Item label={t('skus.field.minMax')}>{`${sku.minQty ?? '—'} / ${sku.maxQty ?? '—'}`}</Descriptions.Item>
          <Descriptions.Item label={t('skus.field.abcClass')}>{sku.abcClass ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('skus.field.isLotTracked')}>{yesNo(t, sku.isLotTracked)}</Descriptions.Item>
          <Descriptions.Item label={t('skus.field.isExpiryTracked')}>
            {sku.isExpiryTracked ? t('skus.shelfLife', { days: sku.shelfLifeDays ?? '—' }) : yesNo(t, false)}
          </Descriptions.Item>
          <Descriptions.Item label={t('skus.section.hazmat')}>
            {sku.isHazmat
              ? `${sku.unNumber} · ${t('skus.field.hazmatClass')} ${sku.hazmatClass}${sku.packingGroup ? ` · ${t('skus.field.packingGroup')} ${sku.packingGroup}` : ''}`
              : t('skus.notHazmat')}
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card className="bolx-sku__tabs">
        <Tabs
          activeKey={tab ?? (sku.iskititem ? 'kit' : 'package')}
          onChange={(key) => onTab(key as SkuTab)}
          items={[
            { key: 'kit', label: label('skus.tabs.kit', sku.iskititem ? kits.data?.length : 0), children: <KitTab sku={sku} canWrite={canWrite} /> },
            { key: 'package', label: label('skus.tabs.package', packages.data?.length), children: <PackageTab sku={sku} canWrite={canWrite} /> },
            { key: 'barcode', label: label('skus.tabs.barcode', barcodes.data?.length), children: <BarcodeTab sku={sku} canWrite={canWrite} /> },
            { key: 'attribute', label: label('skus.tabs.attribute', attributes.data?.length), children: <AttributeTab sku={sku} canWrite={canWrite} /> },
          ]}
        />
      </Card>
      <SkuDrawer target={drawer.target} onClose={drawer.close} />
    </div>
  );
}
