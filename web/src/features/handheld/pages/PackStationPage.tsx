import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { InputNumberRef } from 'rc-input-number';
import { useSearchParams } from 'react-router';
import { Alert, Button, Form, InputNumber, Modal, Select, Table, Tag, Typography } from 'antd';
import { InboxOutlined, PlusOutlined, PrinterOutlined, SettingOutlined, SwapOutlined, UndoOutlined } from '@ant-design/icons';
import { APPROVER_ROLES, roleFromLabel, type Carton, type PackOrderView } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { refusalOf } from '../answers';
import { useKeyedCall } from '../../../lib/action-key';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { selectWarehouseId } from '../../../lib/state/selectors';
import { usePageTitle } from '../../../lib/use-page-title';
import { CartonTypesDrawer } from '../components/CartonTypesDrawer';
import { ScanBox } from '../components/ScanBox';
import { useScanStation } from '../use-scan-station';
import {
  useCloseCartonMutation, useGetCartonTypesQuery, useGetOrderForPackQuery, useGetPackStationLocationsQuery, useOpenCartonMutation,
  useOpenPackMutation, usePackItemMutation, useUnpackItemMutation,
} from '../handheld-api';
import {
  applyPackItem, cartonUnits, openCartonOf, packLines, packStage, planPackScan, readStationSettings, weightPrefill, writeStationSettings,
  type PackStationSettings,
} from '../pack-station';
import '../handheld.css';

const storage = () => (typeof window !== 'undefined' ? window.localStorage : undefined);
type Unpacking = { carton: Carton; orderLineId: number; lot: string; skuCode: string; quantity: number };

/**
 * The pack station (/BatchJob?pack=1[&order=<orderId>]): scan a tote or an order, scan each item into the open
 * carton (a carton of the station's default type opens by itself), close it with its weight, print the packing
 * slip. The station location and the default carton type are remembered per warehouse on this device.
 */
export default function PackStationPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const orderParam = Number(params.get('order')) || 0;
  const headerWarehouse = useAppSelector(selectWarehouseId) ?? 0;
  const warehouses = useAppSelector((s) => s.header.data?.warehouseData) ?? [];
  const isManager = useAppSelector((s) => {
    const role = roleFromLabel(s.auth.usertype ?? '');
    return role !== undefined && APPROVER_ROLES.includes(role);
  });
  const [chosenWarehouse, setChosenWarehouse] = useState<number>();
  const warehouseId = headerWarehouse > 0 ? headerWarehouse : chosenWarehouse ?? (warehouses.length === 1 ? warehouses[0].warehouseId : 0);

  const [settings, setSettings] = useState<PackStationSettings>({});
  useEffect(() => { setSettings(warehouseId ? readStationSettings(storage(), warehouseId) : {}); }, [warehouseId]);
  const remember = (change: PackStationSettings) => setSettings(writeStationSettings(storage(), warehouseId, change));

  const stations = useGetPackStationLocationsQuery(warehouseId, { skip: !warehouseId });
  const cartonTypes = useGetCartonTypesQuery({ warehouseId, active: true }, { skip: !warehouseId });
  const types = cartonTypes.data?.items ?? [];
  // A remembered choice counts only while it is still one of the warehouse's (a location deactivated since).
  const stationLocationId = stations.data?.some((s) => s.locationId === settings.stationLocationId) ? settings.stationLocationId : undefined;
  const cartonTypeId = types.some((c) => c.cartonTypeId === settings.cartonTypeId) ? settings.cartonTypeId : undefined;

  const [order, setOrderState] = useState<PackOrderView>();
  // Scans read the order and the multiplier from here: a scan queued behind a call runs before React re-renders.
  const orderRef = useRef<PackOrderView>();
  const setOrder = useCallback((next: PackOrderView | undefined) => { orderRef.current = next; setOrderState(next); }, []);
  const inFlightRef = useRef(false);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const station = useScanStation();
  const { scanBox, focus, error, notice, refuse, accept } = station;
  const [times, setTimesState] = useState<number>(1);
  const timesRef = useRef(1);
  const setTimes = (n: number) => { timesRef.current = n; setTimesState(n); };
  const [closing, setClosing] = useState<Carton>();
  const [unpacking, setUnpacking] = useState<Unpacking>();
  const [typesOpen, setTypesOpen] = useState(false);
  const [dialogError, setDialogError] = useState<string>();

  const [openPack] = useOpenPackMutation();
  const [openCarton] = useOpenCartonMutation();
  const [packItem] = usePackItemMutation();
  const [unpackItem] = useUnpackItemMutation();
  const [closeCarton] = useCloseCartonMutation();
  const send = useKeyedCall();
  const [download, downloading] = useDownload();

  usePageTitle(order ? `${t('handheld.pack.title')} · ${order.soNumber}` : t('handheld.pack.title'));

  /** One call at a time: scans while it is on its way are ignored; a refusal is said with the server's words. */
  const call = async <T,>(run: () => Promise<T>, onError?: (message: string) => void): Promise<T | undefined> => {
    inFlightRef.current = true;
    rerender();
    try {
      return await run();
    } catch (raw) {
      const message = refusalOf(raw, t);
      refuse(message);
      onError?.(message);
      return undefined;
    } finally {
      inFlightRef.current = false;
      rerender();
      focus();
    }
  };

  /** The order as the server answered, with its message (the prompt above the box says what comes next). */
  const showOrder = (next: PackOrderView, message?: string) => {
    setOrder(next);
    accept(message);
  };

  const onScan = async (raw: string) => {
    const order = orderRef.current;
    const plan = planPackScan({ warehouseId, stationLocationId, cartonTypeId, order, inFlight: inFlightRef.current }, raw, timesRef.current);
    switch (plan.kind) {
      case 'ignore':
        return;
      case 'refuse':
        refuse(t(plan.message.id, plan.message.values));
        return;
      case 'openPack': {
        const view = await call(() => openPack(plan.request).unwrap());
        if (view) showOrder(view);
        return;
      }
      case 'packItem': {
        // With no carton open the server opens one of the default type, only if it accepts the scan.
        const answer = await call(() => send('pack', plan.request, packItem));
        if (!answer || !orderRef.current) return;
        setTimes(1);
        showOrder(applyPackItem(orderRef.current, answer), answer.message);
      }
    }
  };
  station.handle.current = onScan;

  // An order named in the URL opens once, when the station is ready.
  const openedFromUrl = useRef(0);
  const named = useGetOrderForPackQuery(orderParam, { skip: !orderParam });
  useEffect(() => {
    const target = named.data;
    if (!target || openedFromUrl.current === target.orderId || !stationLocationId) return;
    openedFromUrl.current = target.orderId;
    void call(() => openPack({ warehouseId: target.warehouseId, code: target.soNumber }).unwrap()).then((view) => { if (view) showOrder(view); });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [named.data, stationLocationId]);

  const onNewCarton = async () => {
    if (!order) return;
    if (!cartonTypeId) { refuse(t('handheld.pack.refuse.noCartonType')); return; }
    const answer = await call(() => openCarton({ orderId: order.orderId, cartonTypeId }).unwrap());
    if (answer) showOrder(answer.order, answer.message);
  };
  const onClose = async (carton: Carton, weightKg: number) => {
    if (inFlightRef.current) return;
    // A refused weight keeps the dialog open with the server's words, for the packer to correct it.
    const answer = await call(() => send('close', { cartonId: carton.cartonId, weightKg, ...(stationLocationId ? { locationId: stationLocationId } : {}) }, closeCarton), setDialogError);
    if (!answer) return;
    setClosing(undefined);
    showOrder(answer.order, answer.message);
  };
  const onUnpack = async (u: Unpacking, quantity: number) => {
    if (inFlightRef.current) return;
    const answer = await call(() => send('unpack', { cartonId: u.carton.cartonId, orderLineId: u.orderLineId, lot: u.lot, quantity }, unpackItem), setDialogError);
    if (!answer) return;
    setUnpacking(undefined);
    showOrder(answer.order, answer.message);
  };
  const onPrint = async () => {
    if (!order) return;
    await download({ url: 'Warehouse/BatchPrint/PackingSlip', method: 'GET', params: { orderId: order.orderId } }, `packing-slip-${order.soNumber}.pdf`);
    focus();
  };
  const onOtherOrder = () => {
    setOrder(undefined);
    station.reset();
    if (orderParam) setParams((p) => { p.delete('order'); return p; });
    focus();
  };

  const stage = packStage(order);
  const open = order ? openCartonOf(order) : undefined;
  const prompt = {
    order: t('handheld.pack.prompt.order'),
    packed: t('handheld.pack.prompt.next'),
    carton: t('handheld.pack.prompt.carton'),
    item: t('handheld.pack.prompt.item', { carton: open?.cartonNumber ?? '' }),
    close: t('handheld.pack.prompt.close', { carton: open?.cartonNumber ?? '' }),
  }[stage];
  const lines = order ? packLines(order) : [];
  const hasLots = lines.some((l) => l.lot);

  return (
    <div className="bolx-pack">
      <header className="bolx-hh__head">
        <Typography.Title level={4} className="bolx-hh__title"><InboxOutlined /> {t('handheld.pack.title')}</Typography.Title>
        {isManager && warehouseId > 0 && (
          <Button icon={<SettingOutlined />} onClick={() => setTypesOpen(true)}>{t('handheld.cartonTypes.open')}</Button>
        )}
      </header>

      <div className="bolx-pack__setup">
        {headerWarehouse <= 0 && warehouses.length > 1 && (
          <div>
            <Typography.Text type="secondary">{t('handheld.pack.warehouse')}</Typography.Text>
            <Select size="large" value={warehouseId || undefined} placeholder={t('handheld.pack.chooseWarehouse')} aria-label={t('handheld.pack.warehouse')}
              options={warehouses.map((w) => ({ value: w.warehouseId, label: w.warehouseName }))}
              onChange={(v: number) => { setChosenWarehouse(v); setOrder(undefined); }} />
          </div>
        )}
        <div>
          <Typography.Text type="secondary">{t('handheld.pack.station')}</Typography.Text>
          <Select size="large" value={stationLocationId} placeholder={t('handheld.pack.chooseStation')} aria-label={t('handheld.pack.station')}
            loading={stations.isFetching} disabled={!warehouseId} showSearch optionFilterProp="label"
            options={(stations.data ?? []).map((s) => ({ value: s.locationId, label: `${s.locationCode} (${s.locationType})` }))}
            onChange={(v: number) => remember({ stationLocationId: v })} onOpenChange={(o) => { if (!o) setTimeout(focus, 0); }} />
        </div>
        <div>
          <Typography.Text type="secondary">{t('handheld.pack.cartonType')}</Typography.Text>
          <Select size="large" value={cartonTypeId} placeholder={t('handheld.pack.chooseCartonType')} aria-label={t('handheld.pack.cartonType')}
            loading={cartonTypes.isFetching} disabled={!warehouseId}
            options={types.map((c) => ({ value: c.cartonTypeId, label: `${c.code} · ${c.lengthCm}×${c.widthCm}×${c.heightCm}` }))}
            onChange={(v: number) => remember({ cartonTypeId: v })} onOpenChange={(o) => { if (!o) setTimeout(focus, 0); }} />
        </div>
      </div>
      {warehouseId > 0 && stations.data && stations.data.length === 0 && <Alert type="warning" showIcon message={t('handheld.pack.noStations')} />}
      {warehouseId > 0 && cartonTypes.data && types.length === 0 && <Alert type="info" showIcon message={t('handheld.pack.noCartonTypes')} />}

      <div className="bolx-pack__body">
        <section className="bolx-pack__main">
          <div className="bolx-pack__scanrow">
            <ScanBox ref={scanBox} label={t('handheld.pack.scanLabel')} prompt={prompt} error={error} busy={inFlightRef.current}
              disabled={!warehouseId} onScan={station.push} />
            {(stage === 'item' || stage === 'carton') && (
              <div className="bolx-pack__times">
                <Typography.Text type="secondary">{t('handheld.pack.times')}</Typography.Text>
                <InputNumber min={1} max={9999} precision={0} value={times} aria-label={t('handheld.pack.times')}
                  onChange={(v) => setTimes(v ?? 1)} onPressEnter={focus} style={{ width: 96 }} />
              </div>
            )}
          </div>
          {notice && !error && <Typography.Text type="success" className="bolx-hh__notice">{notice}</Typography.Text>}

          {order && (
            <>
              <div className="bolx-pack__order">
                <span className="bolx-pack__so">{order.soNumber}</span>
                <Tag color={order.status === 'Packed' ? 'green' : 'blue'}>{order.status}</Tag>
                <Typography.Text>{order.customerName}</Typography.Text>
                {order.referenceNumber && <Typography.Text type="secondary">{t('handheld.pack.reference', { reference: order.referenceNumber })}</Typography.Text>}
                {order.shipToName && <Typography.Text type="secondary">{t('handheld.pack.shipTo', { name: order.shipToName })}</Typography.Text>}
                {order.carrierName && <Typography.Text type="secondary">{t('handheld.pack.carrier', { carrier: [order.carrierName, order.carrierService].filter(Boolean).join(' ') })}</Typography.Text>}
                {order.toteCodes.length > 0 && <Typography.Text type="secondary">{t('handheld.pack.totes', { codes: order.toteCodes.join(', ') })}</Typography.Text>}
              </div>
              <Table
                className="bolx-pack__lines"
                size="small"
                rowKey="orderLineId"
                pagination={false}
                dataSource={lines}
                scroll={{ x: 'max-content' }}
                rowClassName={(l) => (l.left === 0 ? 'bolx-pack__line--done' : '')}
                columns={[
                  { key: 'sku', title: t('handheld.pack.col.sku'), render: (_, l) => (<><Typography.Text strong>{l.skuCode}</Typography.Text><br /><Typography.Text type="secondary">{l.skuDescription}</Typography.Text></>) },
                  ...(hasLots ? [{ key: 'lot', dataIndex: 'lot', title: t('handheld.pack.col.lot') }] : []),
                  { key: 'picked', dataIndex: 'pickedQuantity', title: t('handheld.pack.col.picked'), align: 'right' as const },
                  { key: 'packed', dataIndex: 'packed', title: t('handheld.pack.col.packed'), align: 'right' as const },
                  { key: 'left', dataIndex: 'left', title: t('handheld.pack.col.left'), align: 'right' as const, render: (v: number) => (v > 0 ? <strong>{v}</strong> : <Tag color="green">0</Tag>) },
                ]}
              />
            </>
          )}
        </section>

        {order && (
          <section className="bolx-pack__cartons" aria-label={t('handheld.pack.cartons')}>
            <Typography.Title level={5} style={{ margin: 0 }}>{t('handheld.pack.cartons')}</Typography.Title>
            <div className="bolx-pack__actions">
              <Button size="large" icon={<PlusOutlined />} disabled={!!open || stage === 'packed' || inFlightRef.current} onClick={() => { void onNewCarton(); }}>
                {t('handheld.pack.newCarton')}
              </Button>
              <Button size="large" type={stage === 'close' ? 'primary' : 'default'} disabled={!open || cartonUnits(open) === 0 || inFlightRef.current} onClick={() => open && setClosing(open)}>
                {t('handheld.pack.closeCarton')}
              </Button>
              <Button size="large" type={stage === 'packed' ? 'primary' : 'default'} icon={<PrinterOutlined />} loading={downloading}
                disabled={!order.cartons.some((c) => c.status === 'Closed')} onClick={() => { void onPrint(); }}>
                {t('handheld.pack.printSlip')}
              </Button>
              <Button size="large" icon={<SwapOutlined />} onClick={onOtherOrder}>{t('handheld.pack.otherOrder')}</Button>
            </div>
            {order.cartons.length === 0 && <Typography.Text type="secondary">{t('handheld.pack.noCartons')}</Typography.Text>}
            {order.cartons.map((c) => (
              <div key={c.cartonId} className={`bolx-pack__carton${c.status === 'Open' ? ' bolx-pack__carton--open' : ''}`}>
                <div className="bolx-pack__carton-head">
                  <Typography.Text strong>{c.cartonNumber}</Typography.Text>
                  <Tag>{c.cartonTypeCode}</Tag>
                  <Tag color={c.status === 'Open' ? 'blue' : 'green'}>{t(c.status === 'Open' ? 'handheld.pack.carton.open' : 'handheld.pack.carton.closed')}</Tag>
                  <Typography.Text type="secondary">{t('handheld.pack.carton.units', { units: cartonUnits(c) })}</Typography.Text>
                  {c.weightKg !== null && <Typography.Text type="secondary">{t('handheld.pack.carton.weight', { weight: c.weightKg })}</Typography.Text>}
                </div>
                {c.status === 'Open' && c.lines.length === 0 && <Typography.Text type="secondary">{t('handheld.pack.carton.empty')}</Typography.Text>}
                {c.lines.map((l) => (
                  <div key={`${l.orderLineId}:${l.lot}`} className="bolx-pack__carton-line">
                    <span>{l.skuCode}{l.lot ? ` · ${l.lot}` : ''}</span>
                    <strong>{l.quantity}</strong>
                    {c.status === 'Open'
                      ? <Button icon={<UndoOutlined />} aria-label={`${t('handheld.pack.unpack')} ${l.skuCode}`} disabled={inFlightRef.current}
                          onClick={() => setUnpacking({ carton: c, orderLineId: l.orderLineId, lot: l.lot, skuCode: l.skuCode, quantity: l.quantity })}>
                          {t('handheld.pack.unpack')}
                        </Button>
                      : <span />}
                  </div>
                ))}
              </div>
            ))}
          </section>
        )}
      </div>

      <QuantityDialog
        open={!!closing}
        title={closing ? t('handheld.pack.closeTitle', { carton: closing.cartonNumber }) : ''}
        label={t('handheld.pack.weight')}
        hint={t('handheld.pack.weightHint')}
        initial={closing ? weightPrefill(closing, types) : undefined}
        min={0.001}
        max={10000}
        precision={3}
        okText={t('handheld.pack.closeCarton')}
        busy={inFlightRef.current}
        error={dialogError}
        onCancel={() => setClosing(undefined)}
        onSubmit={(w) => { if (closing) void onClose(closing, w); }}
        afterClose={() => { setDialogError(undefined); focus(); }}
      />
      <QuantityDialog
        open={!!unpacking}
        title={unpacking ? t('handheld.pack.unpackTitle', { sku: unpacking.skuCode, carton: unpacking.carton.cartonNumber }) : ''}
        label={t('handheld.pack.unpackQuantity')}
        initial={unpacking?.quantity}
        min={1}
        max={unpacking?.quantity ?? 1}
        precision={0}
        okText={t('handheld.pack.unpack')}
        busy={inFlightRef.current}
        error={dialogError}
        onCancel={() => setUnpacking(undefined)}
        onSubmit={(q) => { if (unpacking) void onUnpack(unpacking, q); }}
        afterClose={() => { setDialogError(undefined); focus(); }}
      />
      {warehouseId > 0 && <CartonTypesDrawer open={typesOpen} warehouseId={warehouseId} onClose={() => { setTypesOpen(false); setTimeout(focus, 0); }} />}
    </div>
  );
}

/** A one-number dialog (a carton's weight, units to unpack): Enter in the number submits it. */
function QuantityDialog({ open, title, label, hint, error, initial, min, max, precision, okText, busy, onCancel, onSubmit, afterClose }: {
  open: boolean; title: string; label: string; hint?: string; error?: string; initial?: number; min: number; max: number; precision: number; okText: string; busy: boolean;
  onCancel(): void; onSubmit(value: number): void; afterClose(): void;
}) {
  const t = useT();
  const [form] = Form.useForm<{ value: number }>();
  const input = useRef<InputNumberRef>(null);
  useEffect(() => { if (open) form.setFieldsValue({ value: initial as number }); }, [open, initial, form]);
  // Enter in the number and the OK button both land here; a call already on its way is never sent twice.
  const submit = () => { if (!busy) void form.validateFields().then((v) => onSubmit(v.value)); };
  return (
    <Modal open={open} title={title} okText={okText} cancelText={t('handheld.pack.cancel')} onOk={submit} onCancel={onCancel} afterClose={afterClose}
      // The dialog focuses itself on opening; the number takes it over so a typed value and Enter go there.
      afterOpenChange={(opened) => { if (opened) { input.current?.focus(); input.current?.select(); } }}
      okButtonProps={{ loading: busy, size: 'large' }} cancelButtonProps={{ size: 'large' }} destroyOnHidden>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical">
        <Form.Item name="value" label={label} extra={hint} rules={[{ required: true, message: label }]}>
          <InputNumber ref={input} size="large" min={min} max={max} precision={precision} autoFocus inputMode="decimal" style={{ width: '100%' }} onPressEnter={submit} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
