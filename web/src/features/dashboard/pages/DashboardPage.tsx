import { useMemo, useState } from 'react';
import { Alert, Card, Col, Empty, Row, Segmented, Typography, theme } from 'antd';
import {
  AppstoreOutlined, CalendarOutlined, CheckCircleOutlined, ClockCircleOutlined, DeliveredProcedureOutlined, EnvironmentOutlined, ExceptionOutlined, ImportOutlined, InboxOutlined, SendOutlined,
  ShoppingCartOutlined, ThunderboltOutlined,
} from '@ant-design/icons';
import { useAppSelector } from '../../../lib/hooks';
import { selectWarehouseId } from '../../../lib/state/selectors';
import { themePresetById } from '../../../lib/theme/presets';
import { useT } from '../../../lib/i18n/use-t';
import { useMayAccess } from '../../../lib/use-access';
import { formatPercent, occupancyColor } from '../../../lib/occupancy';
import { StockBarChart } from '../components/StockBarChart';
import { KpiTile } from '../components/KpiTile';
import { useGetDashboardQuery } from '../dashboard-api';
import { formatHours, formatKpi, NO_VALUE, reportLink } from '../kpi';

type Dimension = 'warehouse' | 'customer';

/** KPI tiles and stock chart for the warehouse and customer chosen in the header. */
export default function DashboardPage() {
  const t = useT();
  const { token } = theme.useToken();
  const mayAccess = useMayAccess();
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector((s) => s.header.clientsSelectedIDs);
  const customerName = useAppSelector((s) => s.header.customerName);
  const warehouseName = useAppSelector((s) => s.header.data?.warehouseData.find((w) => w.warehouseId === warehouseId)?.warehouseName);
  const dark = useAppSelector((s) => themePresetById(s.settings.themePresetId).mode === 'dark');
  const { data, isFetching, isError } = useGetDashboardQuery({ warehouseId, customerId });
  // Across all warehouses compare warehouses; within one, compare its clients — unless the user picked a view.
  const [chosenDimension, setDimension] = useState<Dimension | null>(null);
  const dimension: Dimension = chosenDimension ?? (warehouseId === 0 ? 'warehouse' : 'customer');

  const chart = useMemo(() => {
    const rows =
      dimension === 'warehouse'
        ? (data?.stockByWarehouse ?? []).map((r) => ({ name: r.warehouseName, units: r.units }))
        : (data?.stockByCustomer ?? []).map((r) => ({ name: r.customerName, units: r.units }));
    return { categories: rows.map((r) => r.name), values: rows.map((r) => r.units) };
  }, [data, dimension]);

  const loading = isFetching && !data;
  const orders = mayAccess({ module: { key: 'OrderDashboard', permission: 'read' } }) ? '/OrderDashboard' : undefined;
  const occupancy = data?.occupancy ?? 0;

  return (
    <div className="bolx-page">
      <div className="bolx-page__heading">
        <Typography.Title level={3}>{t('dashboard.title')}</Typography.Title>
        <Typography.Text type="secondary">
          {t('dashboard.subtitle', {
            warehouse: warehouseId === 0 ? t('dashboard.allWarehouses') : warehouseName ?? '',
            customer: customerId === 0 ? t('dashboard.allCustomers') : customerName,
          })}
        </Typography.Text>
      </div>
      {isError && <Alert type="error" showIcon message={t('dashboard.loadError')} style={{ marginBottom: 16 }} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} xl={8} xxl={5}>
          <KpiTile loading={loading} label={t('dashboard.kpi.stockUnits')} value={formatKpi(data?.stockUnits)} icon={<InboxOutlined />} accent={token.colorPrimary} />
        </Col>
        <Col xs={24} sm={12} xl={8} xxl={5}>
          <KpiTile loading={loading} label={t('dashboard.kpi.skus')} value={formatKpi(data?.skuCount)} icon={<AppstoreOutlined />} accent="#722ed1" />
        </Col>
        <Col xs={24} sm={12} xl={8} xxl={6}>
          <KpiTile
            loading={loading}
            label={t('dashboard.kpi.locations')}
            value={formatKpi(data?.locationsUsed)}
            icon={<EnvironmentOutlined />}
            accent={occupancyColor(occupancy)}
            hint={
              data && (
                <span>
                  {t('dashboard.kpi.locationsOf', { total: formatKpi(data.locationsTotal), occupancy: formatPercent(occupancy) })}
                </span>
              )
            }
          />
        </Col>
        <Col xs={24} sm={12} xl={12} xxl={4}>
          <KpiTile
            loading={loading}
            label={t('dashboard.kpi.openOrders')}
            value={formatKpi(data?.openOrders)}
            icon={<ShoppingCartOutlined />}
            accent="#fa8c16"
            hint={data && data.openOrders === null ? t('dashboard.kpi.notYet') : undefined}
            to={mayAccess({ module: { key: 'OrderDashboard', permission: 'read' } }) ? '/OrderDashboard' : undefined}
          />
        </Col>
        <Col xs={24} sm={24} xl={12} xxl={4}>
          <KpiTile
            loading={loading}
            label={t('dashboard.kpi.openReceipts')}
            value={formatKpi(data?.openReceipts)}
            icon={<ImportOutlined />}
            accent="#13c2c2"
            hint={data && data.openReceipts === null ? t('dashboard.kpi.notYet') : undefined}
          />
        </Col>
      </Row>
      <Row gutter={[16, 16]} className="bolx-kpi-row">
        {[
          { key: 'dueToday', label: t('dashboard.kpi.dueToday'), value: data?.dueToday, icon: <CalendarOutlined />, accent: '#1890ff', to: orders },
          { key: 'lateOrders', label: t('dashboard.kpi.lateOrders'), value: data?.lateOrders, icon: <ClockCircleOutlined />, accent: data?.lateOrders ? '#f5222d' : '#52c41a', to: orders },
          { key: 'backorders', label: t('dashboard.kpi.backorders'), value: data?.backorders, icon: <ExceptionOutlined />, accent: '#faad14', to: mayAccess({ module: { key: 'BKO', permission: 'read' } }) ? '/BKO' : undefined },
          { key: 'shippedToday', label: t('dashboard.kpi.shippedToday'), value: data?.shippedToday, icon: <SendOutlined />, accent: '#52c41a', to: mayAccess({ module: { key: 'OrderReports', permission: 'read' } }) ? '/OrderReports' : undefined },
          {
            key: 'picks', label: t('dashboard.kpi.unitsPickedPerHour'), value: data?.unitsPickedPerHour, icon: <ThunderboltOutlined />, accent: '#722ed1',
            hint: data && t('dashboard.kpi.unitsPickedToday', { units: data.unitsPickedToday }),
            to: mayAccess({ module: { key: 'ProductivityReport', permission: 'read' } }) ? '/ProductivityReport' : undefined,
          },
        ].map((k) => (
          <Col key={k.key} xs={12} sm={12} xl={8} xxl={4} flex="auto">
            <KpiTile loading={loading} label={k.label} value={formatKpi(k.value)} icon={k.icon} accent={k.accent} hint={k.hint} to={k.to} />
          </Col>
        ))}
      </Row>
      {/* The last 7 days' service figures, each a report's total. */}
      <Row gutter={[16, 16]} className="bolx-kpi-row">
        {[
          {
            key: 'onTime', label: t('dashboard.kpi.onTimeRate'), value: data?.onTimeRate == null ? NO_VALUE : formatPercent(data.onTimeRate), icon: <CheckCircleOutlined />,
            accent: data?.onTimeRate == null || data.onTimeRate >= 95 ? '#52c41a' : data.onTimeRate >= 85 ? '#faad14' : '#f5222d',
            hint: data && t('dashboard.kpi.onTimeRated', { orders: data.onTimeRated }),
            to: mayAccess({ module: { key: 'OrderReports', permission: 'read' } }) ? reportLink('/OrderReports', 'on-time-shipping') : undefined,
          },
          {
            key: 'dockToStock', label: t('dashboard.kpi.dockToStock'),
            value: data?.dockToStockHours == null ? NO_VALUE : t('dashboard.kpi.hours', { hours: formatHours(data.dockToStockHours) }),
            icon: <DeliveredProcedureOutlined />, accent: '#13c2c2', hint: data && t('dashboard.kpi.dockToStockHint'),
            to: mayAccess({ module: { key: 'OtherReports', permission: 'read' } }) ? reportLink('/OtherReports', 'dock-to-stock') : undefined,
          },
        ].map((k) => (
          <Col key={k.key} xs={24} sm={12}>
            <KpiTile loading={loading} label={k.label} value={k.value} icon={k.icon} accent={k.accent} hint={k.hint} to={k.to} />
          </Col>
        ))}
      </Row>
      <Card
        className="bolx-chart-card"
        title={t('dashboard.chart.title', { dimension: t(dimension === 'warehouse' ? 'dashboard.chart.byWarehouse' : 'dashboard.chart.byCustomer') })}
        loading={loading}
        extra={
          <Segmented<Dimension>
            size="small"
            value={dimension}
            onChange={setDimension}
            options={[
              { value: 'warehouse', label: t('dashboard.chart.byWarehouse') },
              { value: 'customer', label: t('dashboard.chart.byCustomer') },
            ]}
          />
        }
      >
        {chart.values.length ? (
          <StockBarChart categories={chart.categories} values={chart.values} seriesName={t('dashboard.chart.units')} color={token.colorPrimary} dark={dark} />
        ) : (
          <Empty description={t('dashboard.chart.empty')} />
        )}
      </Card>
    </div>
  );
}
