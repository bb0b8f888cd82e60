import { useState } from 'react';
import { Button, Descriptions, Form, Input, Segmented } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useKeyedAction } from '../../../lib/action-key';
import { useGetPalletsQuery, useMovePalletMutation, type PalletRow } from '../inventory-api';
import { useResolveLocation } from '../components/use-resolve-location';
import { useInventoryScope } from '../use-inventory-scope';
import { ScanField } from '../../../components/scan/ScanField';
import { useRefusableInput } from '../../../components/scan/use-refusable-input';
import { palletRowOf } from '../scan-filters';
import { PalletRegister } from '../components/PalletRegister';
import { STAFF_ROLES } from '@bolx/contracts';
import { useMayAccess } from '../../../lib/use-access';
import '../inventory.css';

const palletKey = (p: PalletRow) => `${p.warehouseId}:${p.pallet}:${p.locationId}:${p.customerId}`;

/** /MovePallet: pallets with stock and where they are (a whole pallet moves in one transaction), and the pallet register. */
export default function MovePalletPage() {
  const t = useT();
  const [view, setView] = useState<'stock' | 'register'>('stock');
  // The register is the warehouse's (staff only, as the server holds it).
  const seesRegister = useMayAccess()({ roles: STAFF_ROLES, module: { key: 'MovePallet', permission: 'read' } });
  const switcher = seesRegister && (
    <Segmented value={view} onChange={(v) => setView(v as 'stock' | 'register')} data-testid="pallet-view"
      options={[{ value: 'stock', label: t('inventory.pallet.onHand') }, { value: 'register', label: t('inventory.pallet.register') }]} />
  );
  return view === 'register' ? <PalletRegister toolbar={switcher} /> : <PalletStock switcher={switcher} />;
}

function PalletStock({ switcher }: { switcher: React.ReactNode }) {
  const t = useT();
  const { canWrite, warehouseId, customerId } = useInventoryScope('MovePallet');
  const [moving, setMoving] = useState<PalletRow>();
  const columns: ColumnsType<PalletRow> = [
    { key: 'pallet', dataIndex: 'pallet', title: t('inventory.fields.pallet') },
    { key: 'locationCode', dataIndex: 'locationCode', title: t('inventory.fields.location') },
    { key: 'warehouseName', dataIndex: 'warehouseName', title: t('inventory.fields.warehouse') },
    { key: 'customerName', dataIndex: 'customerName', title: t('inventory.fields.customer') },
    { key: 'skuCount', dataIndex: 'skuCount', title: t('inventory.fields.skuCount'), align: 'right' },
    { key: 'onHand', dataIndex: 'onHand', title: t('inventory.fields.onHand'), align: 'right' },
    { key: 'allocated', dataIndex: 'allocated', title: t('inventory.fields.allocated'), align: 'right' },
    ...(canWrite
      ? [{
          key: 'actions', title: t('table.actions'), fixed: 'right' as const,
          render: (_: unknown, row: PalletRow) => (
            <Button type="link" size="small" icon={<SwapOutlined />} onClick={() => setMoving(row)} aria-label={`${t('inventory.pallet.action')} ${row.pallet}`}>
              {t('inventory.pallet.action')}
            </Button>
          ),
        }]
      : []),
  ];
  return (
    <DataTablePage<PalletRow>
      title={t('routes.MovePallet')}
      subtitle={t('inventory.pallet.subtitle')}
      rowKey={palletKey}
      columns={columns}
      useList={useGetPalletsQuery}
      searchPlaceholder={t('inventory.pallet.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      excel={{ url: 'Warehouse/MovePallet/DownloadPalletsExcel', fileName: 'pallets.xlsx' }}
      toolbar={(
        <div className="bolx-inv-scanbar">
          {switcher}
          {/* Scanning a pallet's label opens its move, wherever it is in the list. */}
          {canWrite && <ScanField warehouseId={warehouseId || undefined} customerId={customerId || undefined} want={['pallet'] as const}
            placeholder={t('inventory.pallet.scanPlaceholder')} onMatch={(m) => { setMoving(palletRowOf(m)); }} />}
        </div>
      )}
    >
      <MovePalletDrawer pallet={moving} onClose={() => setMoving(undefined)} />
    </DataTablePage>
  );
}

function MovePalletDrawer({ pallet, onClose }: { pallet?: PalletRow; onClose: () => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<{ toLocationCode: string; note?: string }>();
  const [move] = useMovePalletMutation();
  const resolve = useResolveLocation();
  const act = useKeyedAction();
  const { ref: toLocation, refuse } = useRefusableInput(form, 'toLocationCode');
  const submit = async (v: { toLocationCode: string; note?: string }) => {
    if (!pallet) return undefined;
    const { location: to, error } = await resolve(pallet.warehouseId, v.toLocationCode);
    if (!to || to.locationId === pallet.locationId) {
      refuse(to ? t('inventory.move.sameLocation') : (error ?? t('inventory.move.unknownLocation')));
      return undefined;
    }
    return act(`pallet:${palletKey(pallet)}`, {
      warehouseId: pallet.warehouseId, pallet: pallet.pallet, fromLocationId: pallet.locationId, toLocationId: to.locationId,
      note: v.note || undefined,
    }, move);
  };
  return (
    <FormDrawer open={pallet !== undefined} title={t('inventory.pallet.title')} onClose={onClose} form={form} onSubmit={submit} submitLabel={t('inventory.move.submit')}>
      {pallet && (
        <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }} items={[
          { key: 'pallet', label: t('inventory.fields.pallet'), children: pallet.pallet },
          { key: 'from', label: t('inventory.fields.fromLocation'), children: pallet.locationCode },
          { key: 'onHand', label: t('inventory.fields.onHand'), children: pallet.onHand },
        ]} />
      )}
      <Form.Item name="toLocationCode" label={t('inventory.fields.toLocation')} rules={[r.required('toLocation')]} extra={t('inventory.scanHint')}>
        <Input ref={toLocation} autoFocus autoComplete="off" placeholder={t('inventory.fields.locationPlaceholder')}
          onChange={() => form.setFields([{ name: 'toLocationCode', errors: [] }])} />
      </Form.Item>
      <Form.Item name="note" label={t('inventory.fields.note')}>
        <Input.TextArea rows={2} maxLength={255} />
      </Form.Item>
    </FormDrawer>
  );
}
