import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Progress, Tooltip, Typography } from 'antd';
import type { BatchAction } from '../../../components/data-table/batch-selection';
import type { ColumnsType } from 'antd/es/table';
import { EditOutlined, PrinterOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import { roleFromLabel, type FilterLabel, type Location, type LocationCategory } from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseScope } from '../../../components/data-table/list-args';
import { StatusTag } from '../../../components/StatusTag';
import { useT } from '../../../lib/i18n/use-t';
import { formatPercent, occupancyColor } from '../../../lib/occupancy';
import { useCanWrite } from '../../../lib/use-can-write';
import { typesOfCategory } from '../location-type-options';
import {
  useGetLocationFilterLabelsQuery, useGetLocationsQuery, useGetLocationTypesQuery, useGetOtherLocationsQuery, type LocationList,
  type PrintSelection,
} from '../locations-api';
import { LocationEditDrawer } from './LocationEditDrawer';
import '../locations.css';

const SCREENS = {
  storage: { url: 'Location', title: 'routes.Location', useList: useGetLocationsQuery, excel: { url: 'warehouse/Location/DownloadLocationExcel', fileName: 'locations.xlsx' } },
  other: { url: 'OtherLocations', title: 'routes.OtherLocations', useList: useGetOtherLocationsQuery, excel: { url: 'warehouse/Location/DownloadOtherLocationExcel', fileName: 'other-locations.xlsx' } },
} as const;

const position = (l: Location) => [l.aisle, l.rack, l.level, l.bin].filter(Boolean).join(' · ') || '—';

/**
 * /Location and /OtherLocations on the shared list page: capacity, on hand and occupancy per location, filters,
 * search, Excel, edit, and labels for the picked rows. A client account reads the locations holding its stock only.
 */
export function LocationListScreen({ category }: { category: LocationCategory }) {
  const t = useT();
  const intl = useIntl();
  const navigate = useNavigate();
  const screen = SCREENS[category];
  const canWrite = useCanWrite(screen.url);
  const isClient = useAppSelector((s) => roleFromLabel(s.auth.usertype ?? '') === 'Client');
  const allWarehouses = useAppSelector((s) => !s.auth.selectedWarehouse || s.auth.selectedWarehouse === '0');
  const { data: labels } = useGetLocationFilterLabelsQuery();
  const { data: types } = useGetLocationTypesQuery();
  const [editing, setEditing] = useState<Location | undefined>();

  const typeName = useCallback((code: string) => types?.find((x) => x.code === code)?.name ?? code, [types]);

  // The server's filter labels are the storage list's; the other list swaps in its own kinds and has no zones.
  const filters = useMemo<FilterLabel[]>(() => {
    const list = labels ?? [];
    if (category === 'storage') return list;
    return list
      .filter((f) => f.key !== 'zone')
      .map((f) => (f.key === 'type' ? { ...f, options: typesOfCategory(types, 'other').map((o) => ({ label: o.label, value: o.value })) } : f));
  }, [labels, types, category]);

  const columns = useMemo((): ColumnsType<Location> => {
    const cols: ColumnsType<Location> = [
      { key: 'locationCode', dataIndex: 'locationCode', title: t('locations.fields.locationCode'), sorter: true, fixed: 'left', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
      ...(allWarehouses ? [{ key: 'warehouseName', dataIndex: 'warehouseName', title: t('locations.fields.warehouse') }] : []),
      { key: 'locationType', dataIndex: 'locationType', title: t('locations.fields.locationType'), sorter: true, render: typeName },
      ...(category === 'storage'
        ? [
            { key: 'zone', dataIndex: 'zone', title: t('locations.fields.zone'), sorter: true, render: (v: string | null) => v ?? '—' },
            { key: 'position', title: t('locations.fields.position'), render: (_: unknown, l: Location) => position(l) },
          ]
        : []),
      {
        key: 'capacity', dataIndex: 'capacity', title: t('locations.fields.capacity'), sorter: true, align: 'right',
        render: (v: number) => (v === 0 ? <Typography.Text type="secondary">{t('locations.list.unlimited')}</Typography.Text> : intl.formatNumber(v)),
      },
      { key: 'onHand', dataIndex: 'onHand', title: t(isClient ? 'locations.list.yourUnits' : 'locations.list.onHand'), align: 'right', render: (v: number) => intl.formatNumber(v) },
      {
        key: 'occupancy', dataIndex: 'occupancy', title: t('locations.list.occupancy'), width: 132,
        render: (v: number | null) =>
          v === null ? (
            <Typography.Text type="secondary">—</Typography.Text>
          ) : (
            <Tooltip title={formatPercent(v)}>
              <Progress className="bolx-loc-occupancy" percent={Math.min(100, v)} format={() => formatPercent(v)} size="small" strokeColor={occupancyColor(v)} status="normal" />
            </Tooltip>
          ),
      },
      { key: 'isActive', dataIndex: 'isActive', title: t('locations.fields.isActive'), render: (v: boolean) => <StatusTag active={v} /> },
    ];
    if (!canWrite) return cols;
    return [
      ...cols,
      {
        key: 'actions', title: t('table.actions'), fixed: 'right',
        render: (_: unknown, row: Location) => (
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} aria-label={`${t('table.edit')} ${row.locationCode}`}>
            {t('table.edit')}
          </Button>
        ),
      },
    ];
  }, [t, intl, typeName, allWarehouses, category, canWrite, isClient]);

  /** Labels for the picked rows (of one warehouse): the print screen takes them as its selection. */
  const printLabels: BatchAction<Location> = {
    key: 'printLabels', label: (count) => (count ? t('locations.list.printPicked', { count }) : t('locations.list.printLabels')), icon: <PrinterOutlined />,
    // The label call takes ids or a code range, not the list's search: picked rows only.
    allMatching: false,
    disabledReason: (target) => (target.kind === 'rows' && new Set(target.rows.map((l) => l.warehouseId)).size > 1 ? t('locations.list.oneWarehouse') : undefined),
    run: (target) => {
      if (target.kind !== 'rows' || target.rows.length === 0) return;
      const picked = target.rows;
      const print: PrintSelection = { warehouseId: picked[0].warehouseId, locationIds: picked.map((l) => l.locationId), codes: picked.map((l) => l.locationCode) };
      navigate('/PrintLocations', { state: { print } });
    },
  };

  return (
    <DataTablePage<Location, LocationList>
      title={t(screen.title)}
      subtitle={t(isClient ? 'locations.list.clientSubtitle' : `locations.list.subtitle.${category}`)}
      rowKey="locationId"
      columns={columns}
      useList={screen.useList}
      scopeFilters={warehouseScope}
      filters={filters}
      searchPlaceholder={t('locations.list.searchPlaceholder')}
      excel={screen.excel}
      onAdd={canWrite ? () => navigate('/CreateLocation') : undefined}
      addLabel={t('locations.list.add')}
      batchActions={canWrite ? [printLabels] : undefined}
    >
      <LocationEditDrawer location={editing} onClose={() => setEditing(undefined)} />
    </DataTablePage>
  );
}
