import { useEffect, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import {
  Alert, Button, Card, Checkbox, Col, DatePicker, Descriptions, Form, Input, InputNumber, Row, Select, Skeleton, Space, Table, TimePicker, Timeline, Typography, Upload,
} from 'antd';
import { DeleteOutlined, DownloadOutlined, PlusOutlined, PrinterOutlined, UploadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import {
  FREIGHT_CHARGE_TERMS, FREIGHT_PACKAGE_TYPES, HANDLING_UNIT_TYPES, NMFC_CLASSES, STATUS_MACHINES, densityLbPerFt3, freightClassForDensity, offeredActions,
  type CreateFreightShipmentInput, type HandlingUnitInput,
} from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { LinkedTickets } from '../../../components/linked-tickets/LinkedTickets';
import { selectProps } from '../../../components/form/select-props';
import { StatusTag } from '../../../components/StatusTag';
import { errorToastText, formFieldErrors, toApiError, type ApiError } from '../../../lib/api/api-error';
import { useActionKey, useKeyedAction } from '../../../lib/action-key';
import { startUpload } from '../../../lib/api/upload';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useCanWrite } from '../../../lib/use-can-write';
import { useClientOptions } from '../../../lib/use-client-options';
import {
  FREIGHT_PATHS, useCreateFreightShipmentMutation, useGetFreightShipmentQuery, useGetPackedOrdersQuery, useSetFreightShipmentStatusMutation,
  useSuggestHandlingUnitsMutation, useUpdateFreightShipmentMutation, type FreightShipmentDetail,
} from '../freight-api';

type Unit = HandlingUnitInput & { key?: string };
interface Values {
  customerId?: number;
  orderIds: number[];
  consignee: CreateFreightShipmentInput['consignee'];
  thirdParty?: CreateFreightShipmentInput['billTo'];
  carrierName: string; scac: string; proNumber?: string; trailerNumber?: string; sealNumber?: string;
  chargeTerms: (typeof FREIGHT_CHARGE_TERMS)[number];
  cod?: number; declaredValue?: number; declaredValuePer?: string; specialInstructions?: string;
  pickupDate?: Dayjs; pickupWindow?: [Dayjs, Dayjs]; dockDoor?: string;
  handlingUnits: Unit[];
}

const newKey = () => Math.random().toString(36).slice(2);
const blankUnit = (): Unit => ({ handlingType: 'Pallet', handlingQty: 1, packageType: 'Carton', pieces: 1, weightKg: 0, lengthCm: 121.9, widthCm: 101.6, heightCm: 100, freightClass: '100', description: '', hazmat: false });
const cents = (dollars?: number) => (dollars === undefined || dollars === null ? undefined : Math.round(dollars * 100));
const EDITABLE = ['Planned', 'Tendered', 'Booked'];

/** The form's values of a saved shipment. */
function valuesOf(s: FreightShipmentDetail): Values {
  return {
    customerId: s.customerId, orderIds: s.orders.map((o) => o.orderId),
    consignee: { ...s.consignee, address2: s.consignee.address2 ?? undefined },
    thirdParty: s.billTo ? { ...s.billTo, address2: s.billTo.address2 ?? undefined } : undefined,
    carrierName: s.carrierName, scac: s.scac, proNumber: s.proNumber ?? undefined, trailerNumber: s.trailerNumber ?? undefined, sealNumber: s.sealNumber ?? undefined,
    chargeTerms: s.chargeTerms, cod: s.codAmountMinor === null ? undefined : s.codAmountMinor / 100,
    declaredValue: s.declaredValueMinor === null ? undefined : s.declaredValueMinor / 100, declaredValuePer: s.declaredValuePer ?? undefined,
    specialInstructions: s.specialInstructions ?? undefined, pickupDate: s.pickupDate ? dayjs(s.pickupDate) : undefined,
    pickupWindow: s.pickupWindowFrom && s.pickupWindowTo ? [dayjs(s.pickupWindowFrom, 'HH:mm'), dayjs(s.pickupWindowTo, 'HH:mm')] : undefined,
    dockDoor: s.dockDoor ?? undefined,
    handlingUnits: s.handlingUnits.map((u) => ({
      key: String(u.handlingUnitId), handlingUnitId: u.handlingUnitId, orderId: u.orderId, handlingType: u.handlingType as Unit['handlingType'], handlingQty: u.handlingQty,
      packageType: u.packageType as Unit['packageType'], pieces: u.pieces, weightKg: u.weightKg, lengthCm: u.lengthCm, widthCm: u.widthCm, heightCm: u.heightCm,
      freightClass: u.freightClass as Unit['freightClass'], nmfcItem: u.nmfcItem ?? undefined, description: u.description, hazmat: u.hazmat, unNumber: u.unNumber ?? undefined,
    })),
  };
}

/** The request's field names where the form names them otherwise (bill-to, money in cents, the pickup window). */
const FORM_NAMES: Record<string, string> = { billTo: 'thirdParty', codAmountMinor: 'cod', declaredValueMinor: 'declaredValue', pickupWindowFrom: 'pickupWindow', pickupWindowTo: 'pickupWindow' };
const formNameOf = (name: (string | number)[]) => [FORM_NAMES[String(name[0])] ?? name[0], ...name.slice(1)];

/**
 * A freight shipment's form: a new one (in the new tab) or a saved one (in the edit tab, with its status actions,
 * bill of lading, proof of delivery, the help desk's tickets about it and history). Pallets can be built from the chosen orders' closed cartons; each
 * unit shows its density and the class the NMFC density scale in force gives.
 */
export function FreightShipmentForm({ shipmentId, onCreated }: { shipmentId?: number; onCreated?: (s: { shipmentId: number; shipNumber: string }) => void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const headerWarehouse = useAppSelector(selectWarehouseId) ?? 0;
  const headerCustomer = useAppSelector(selectCustomerId) || 0;
  const canWrite = useCanWrite('FreightShipment');
  const { data: saved, isLoading } = useGetFreightShipmentQuery(shipmentId ?? 0, { skip: !shipmentId });
  const warehouseId = saved?.warehouseId ?? headerWarehouse;
  const clientOptions = useClientOptions(warehouseId);
  const customerId = (Form.useWatch('customerId', form) as number | undefined) ?? saved?.customerId;
  const { data: packed = [] } = useGetPackedOrdersQuery({ warehouseId, customerId: customerId ?? 0 }, { skip: !warehouseId || !customerId || !canWrite });
  const [suggest, { isLoading: suggesting }] = useSuggestHandlingUnitsMutation();
  const [create, { isLoading: creating }] = useCreateFreightShipmentMutation();
  const [update, { isLoading: updating }] = useUpdateFreightShipmentMutation();
  const [download] = useDownload();
  const act = useKeyedAction();
  const loaded = useRef(false);
  const editable = canWrite && (!saved || EDITABLE.includes(saved.status));

  useEffect(() => {
    if (saved && !loaded.current) {
      loaded.current = true;
      form.setFieldsValue(valuesOf(saved));
    }
  }, [saved, form]);

  if (shipmentId && (isLoading || !saved)) return <Skeleton active paragraph={{ rows: 10 }} />;

  // The orders offered: the client's packed ones, plus those the shipment already carries (shipped ones included).
  const orderOptions = [
    ...(saved?.orders ?? []).map((o) => ({ value: o.orderId, label: `${o.soNumber} · ${o.referenceNumber}` })),
    ...packed.filter((o) => !saved?.orders.some((x) => x.orderId === o.orderId)).map((o) => ({ value: o.orderId, label: `${o.soNumber} · ${o.referenceNumber}` })),
  ];

  const buildPallets = async () => {
    const orderIds = form.getFieldValue('orderIds') as number[] | undefined;
    if (!customerId || !orderIds?.length) {
      form.setFields([{ name: 'orderIds', errors: ['Select packed orders first'] }]);
      return;
    }
    try {
      const units = await suggest({ warehouseId, customerId, orderIds }).unwrap();
      form.setFieldValue('handlingUnits', units.map(({ densityLbFt3: _d, suggestedClass: _s, ...u }) => ({ ...u, key: newKey() })));
    } catch (raw) {
      notifyError(errorToastText(toApiError(raw)));
    }
  };

  const submit = async (v: Values) => {
    const body = {
      orderIds: v.orderIds ?? [], consignee: v.consignee, billTo: v.chargeTerms === 'Third Party' || v.thirdParty?.name ? (v.thirdParty?.name ? v.thirdParty : undefined) : undefined,
      carrierName: v.carrierName, scac: v.scac?.toUpperCase(), proNumber: v.proNumber || undefined, trailerNumber: v.trailerNumber || undefined,
      sealNumber: v.sealNumber || undefined, chargeTerms: v.chargeTerms, codAmountMinor: cents(v.cod), declaredValueMinor: cents(v.declaredValue),
      declaredValuePer: v.declaredValuePer || undefined, specialInstructions: v.specialInstructions || undefined,
      pickupDate: v.pickupDate?.format('YYYY-MM-DD'), pickupWindowFrom: v.pickupWindow?.[0]?.format('HH:mm'), pickupWindowTo: v.pickupWindow?.[1]?.format('HH:mm'),
      dockDoor: v.dockDoor || undefined,
      handlingUnits: (v.handlingUnits ?? []).map(({ key: _k, ...u }) => ({ ...u, orderId: u.orderId ?? null, nmfcItem: u.nmfcItem || undefined, unNumber: u.hazmat ? u.unNumber : undefined })),
    };
    // The server's refusals (a PRO number already used, a class that is not NMFC…) are shown on their fields too.
    const onError = (error: ApiError) => form.setFields(formFieldErrors(error).map((f) => ({ ...f, name: formNameOf(f.name) })) as never);
    const answer = saved
      ? await act('save', { ...body, shipmentId: saved.shipmentId }, update, { onError })
      : await act('save', { ...body, warehouseId, customerId: v.customerId! }, create, { onError });
    if (answer && !saved) onCreated?.({ shipmentId: answer.data.shipmentId, shipNumber: answer.data.shipNumber });
  };

  const initial: Partial<Values> = { customerId: headerCustomer || undefined, orderIds: [], chargeTerms: 'Prepaid', consignee: { country: 'US' } as Values['consignee'], handlingUnits: [{ ...blankUnit(), key: newKey() }] };

  return (
    <div className="bolx-freight-form">
      {saved && <ShipmentHeader shipment={saved} canWrite={canWrite} onPrint={() => download(FREIGHT_PATHS.billOfLading(saved.shipmentId), `bol-${saved.shipNumber}.pdf`)} />}
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={submit} disabled={!editable} scrollToFirstError>
        <Card size="small" title={t('freight.sec.orders')}>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="customerId" label={t('freight.f.customer')} rules={[{ required: true, message: 'Please select a client!' }]}>
                <Select {...selectProps} options={clientOptions} disabled={!!saved || !editable} data-testid="freight-customer" />
              </Form.Item>
            </Col>
            <Col xs={24} md={16}>
              <Form.Item name="orderIds" label={t('freight.f.orders')} extra="Packed orders of the client in this warehouse">
                <Select {...selectProps} mode="multiple" options={orderOptions} data-testid="freight-orders" />
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Row gutter={16}>
          <Col xs={24} lg={12}>
            <Card size="small" title={t('freight.sec.consignee')}>
              <AddressBlock prefix="consignee" required />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card size="small" title={t('freight.sec.billTo')}>
              <AddressBlock prefix="thirdParty" />
            </Card>
          </Col>
        </Row>

        <Card size="small" title={t('freight.sec.carrier')}>
          <Row gutter={16}>
            <Col xs={24} md={8}><Form.Item name="carrierName" label="Carrier name" rules={[{ required: true, message: 'Please enter the carrier!' }]}><Input maxLength={100} /></Form.Item></Col>
            <Col xs={12} md={4}>
              <Form.Item name="scac" label="SCAC" normalize={(v: string) => v?.toUpperCase()} rules={[{ required: true, pattern: /^[A-Z]{2,4}$/, message: 'A SCAC is 2 to 4 capital letters' }]}>
                <Input maxLength={4} />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}><Form.Item name="proNumber" label="PRO number"><Input maxLength={20} /></Form.Item></Col>
            <Col xs={12} md={4}><Form.Item name="trailerNumber" label="Trailer number"><Input maxLength={30} /></Form.Item></Col>
            <Col xs={12} md={4}><Form.Item name="sealNumber" label="Seal number(s)"><Input maxLength={60} /></Form.Item></Col>
            <Col xs={24} md={8}>
              <Form.Item name="chargeTerms" label="Freight charge terms" rules={[{ required: true }]}>
                <Select options={FREIGHT_CHARGE_TERMS.map((c) => ({ value: c, label: c }))} />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}><Form.Item name="cod" label="COD amount ($)"><InputNumber min={0} precision={2} style={{ width: '100%' }} /></Form.Item></Col>
            <Col xs={12} md={4}><Form.Item name="declaredValue" label="Declared value ($)"><InputNumber min={0} precision={2} style={{ width: '100%' }} /></Form.Item></Col>
            <Col xs={24} md={8}><Form.Item name="declaredValuePer" label="Declared value per"><Input maxLength={30} placeholder="shipment" /></Form.Item></Col>
            <Col span={24}><Form.Item name="specialInstructions" label="Special instructions"><Input.TextArea maxLength={1000} rows={2} /></Form.Item></Col>
          </Row>
        </Card>

        <Card size="small" title={t('freight.sec.pickup')}>
          <Row gutter={16}>
            <Col xs={24} md={8}><Form.Item name="pickupDate" label="Date"><DatePicker style={{ width: '100%' }} /></Form.Item></Col>
            <Col xs={24} md={8}><Form.Item name="pickupWindow" label="Window"><TimePicker.RangePicker format="HH:mm" minuteStep={15} style={{ width: '100%' }} /></Form.Item></Col>
            <Col xs={24} md={8}><Form.Item name="dockDoor" label="Dock door"><Input maxLength={30} /></Form.Item></Col>
          </Row>
        </Card>

        <Card size="small" title={t('freight.sec.units')} extra={editable && (
          <Button icon={<PlusOutlined />} onClick={buildPallets} loading={suggesting} data-testid="build-pallets">{t('freight.buildPallets')}</Button>
        )}>
          <Form.List name="handlingUnits">
            {(fields, { add, remove }) => (
              <>
                {fields.map((field, i) => <UnitRow key={field.key} name={field.name} index={i} orderOptions={orderOptions} onRemove={fields.length > 1 ? () => remove(field.name) : undefined} />)}
                {editable && <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ ...blankUnit(), key: newKey() })}>{t('freight.addUnit')}</Button>}
              </>
            )}
          </Form.List>
        </Card>

        {editable && (
          <div className="bolx-freight-form__submit">
            <Button type="primary" htmlType="submit" loading={creating || updating} data-testid="save-freight-shipment">{saved ? t('freight.save') : t('freight.create')}</Button>
          </div>
        )}
      </Form>
      {saved && <ProofOfDelivery shipment={saved} canWrite={canWrite} />}
      {saved && <LinkedTickets kind="freight-shipment" id={saved.shipmentId} number={saved.shipNumber} card />}
      {saved && (
        <Card size="small" title={t('freight.sec.history')}>
          {saved.history.length === 0 ? <Typography.Text type="secondary">Planned {dayjs(saved.createdAt).format('YYYY-MM-DD HH:mm')} by {saved.createdBy ?? '—'}</Typography.Text> : (
            <Timeline items={saved.history.map((h) => ({ children: `${h.fromStatus} → ${h.toStatus} · ${dayjs(h.at).format('YYYY-MM-DD HH:mm')} · ${h.username ?? ''}${h.reason ? ` · ${h.reason}` : ''}` }))} />
          )}
        </Card>
      )}
    </div>
  );
}

function AddressBlock({ prefix, required = false }: { prefix: 'consignee' | 'thirdParty'; required?: boolean }) {
  const req = (message: string) => (required ? [{ required: true, whitespace: true, message }] : []);
  return (
    <Row gutter={12}>
      <Col xs={24} md={16}><Form.Item name={[prefix, 'name']} label="Name" rules={req('Please enter the consignee!')}><Input maxLength={100} /></Form.Item></Col>
      <Col xs={24} md={8}><Form.Item name={[prefix, 'locationNumber']} label={prefix === 'consignee' ? 'Location #' : 'Account #'}><Input maxLength={30} /></Form.Item></Col>
      <Col span={24}><Form.Item name={[prefix, 'address1']} label="Address" rules={req('Please enter the address!')}><Input maxLength={200} /></Form.Item></Col>
      <Col xs={24} md={10}><Form.Item name={[prefix, 'city']} label="City" rules={req('Please enter city!')}><Input maxLength={100} /></Form.Item></Col>
      <Col xs={8} md={4}><Form.Item name={[prefix, 'state']} label="State" rules={req('Please enter state!')}><Input maxLength={50} /></Form.Item></Col>
      <Col xs={10} md={6}><Form.Item name={[prefix, 'zip']} label="ZIP" rules={req('Please enter zip code!')}><Input maxLength={20} /></Form.Item></Col>
      <Col xs={6} md={4}><Form.Item name={[prefix, 'country']} label="Country" normalize={(v: string) => v?.toUpperCase()}><Input maxLength={2} placeholder="US" /></Form.Item></Col>
    </Row>
  );
}

/** One handling unit: counts, weight and dimensions, class (with the density scale's suggestion), NMFC item, hazmat. */
function UnitRow({ name, index, orderOptions, onRemove }: { name: number; index: number; orderOptions: { value: number; label: string }[]; onRemove?: () => void }) {
  const t = useT();
  const form = Form.useFormInstance<Values>();
  const unit = Form.useWatch(['handlingUnits', name], form) as Unit | undefined;
  const density = unit ? densityLbPerFt3((unit.weightKg ?? 0) / (unit.handlingQty || 1), unit.lengthCm ?? 0, unit.widthCm ?? 0, unit.heightCm ?? 0) : 0;
  const suggested = density > 0 ? freightClassForDensity(density, dayjs().format('YYYY-MM-DD')) : null;
  return (
    <div className="bolx-freight-unit" data-testid={`unit-${index}`}>
      <Row gutter={8} align="bottom">
        <Col xs={12} md={3}><Form.Item name={[name, 'handlingType']} label="HU type"><Select options={HANDLING_UNIT_TYPES.map((v) => ({ value: v, label: v }))} /></Form.Item></Col>
        <Col xs={12} md={2}><Form.Item name={[name, 'handlingQty']} label="HU qty" rules={[{ required: true }]}><InputNumber min={1} max={999} precision={0} style={{ width: '100%' }} /></Form.Item></Col>
        <Col xs={12} md={3}><Form.Item name={[name, 'packageType']} label="Pkg type"><Select options={FREIGHT_PACKAGE_TYPES.map((v) => ({ value: v, label: v }))} /></Form.Item></Col>
        <Col xs={12} md={2}><Form.Item name={[name, 'pieces']} label="Pieces" rules={[{ required: true }]}><InputNumber min={1} precision={0} style={{ width: '100%' }} /></Form.Item></Col>
        <Col xs={12} md={3}><Form.Item name={[name, 'weightKg']} label="Weight (kg)" rules={[{ required: true, type: 'number', min: 0.1, message: 'Weight above 0' }]}><InputNumber min={0} step={0.1} style={{ width: '100%' }} /></Form.Item></Col>
        <Col xs={8} md={2}><Form.Item name={[name, 'lengthCm']} label="L (cm)"><InputNumber min={1} style={{ width: '100%' }} /></Form.Item></Col>
        <Col xs={8} md={2}><Form.Item name={[name, 'widthCm']} label="W (cm)"><InputNumber min={1} style={{ width: '100%' }} /></Form.Item></Col>
        <Col xs={8} md={2}><Form.Item name={[name, 'heightCm']} label="H (cm)"><InputNumber min={1} style={{ width: '100%' }} /></Form.Item></Col>
        <Col xs={12} md={2}>
          <Form.Item name={[name, 'freightClass']} label="Class" rules={[{ required: true, message: 'Choose an NMFC class' }]}>
            <Select options={NMFC_CLASSES.map((v) => ({ value: v, label: v }))} data-testid={`unit-${index}-class`} />
          </Form.Item>
        </Col>
        <Col xs={12} md={3}><Form.Item name={[name, 'nmfcItem']} label="NMFC #"><Input maxLength={16} /></Form.Item></Col>
        <Col xs={24} md={10}><Form.Item name={[name, 'description']} label="Commodity description" rules={[{ required: true, whitespace: true, message: 'Please enter a description!' }]}><Input maxLength={200} /></Form.Item></Col>
        <Col xs={24} md={5}><Form.Item name={[name, 'orderId']} label="Order"><Select allowClear options={orderOptions} /></Form.Item></Col>
        <Col xs={8} md={2}><Form.Item name={[name, 'hazmat']} label="Hazmat" valuePropName="checked"><Checkbox /></Form.Item></Col>
        <Col xs={10} md={3}>
          <Form.Item name={[name, 'unNumber']} label="UN number" rules={[{ validator: (_r, v) => (!unit?.hazmat || /^(UN|NA)\d{4}$/.test(v ?? '') ? Promise.resolve() : Promise.reject(new Error('UN1234'))) }]}>
            <Input maxLength={6} disabled={!unit?.hazmat} placeholder="UN1234" />
          </Form.Item>
        </Col>
        <Col xs={6} md={1}>{onRemove && <Form.Item label=" "><Button danger type="text" icon={<DeleteOutlined />} onClick={onRemove} aria-label="Remove unit" /></Form.Item>}</Col>
      </Row>
      {density > 0 && (
        <Typography.Text type={suggested && unit?.freightClass !== suggested ? 'warning' : 'secondary'} className="bolx-freight-unit__density" data-testid={`unit-${index}-density`}>
          {t('freight.density', { density: density.toFixed(2), cls: suggested ?? '—' })}
          {suggested && unit?.freightClass !== suggested && (
            <Button type="link" size="small" onClick={() => form.setFieldValue(['handlingUnits', name, 'freightClass'], suggested)}>Use {suggested}</Button>
          )}
        </Typography.Text>
      )}
    </div>
  );
}

/** The saved shipment's facts and its status actions (only those the contracts' table offers from its status). */
function ShipmentHeader({ shipment: s, canWrite, onPrint }: { shipment: FreightShipmentDetail; canWrite: boolean; onPrint: () => void }) {
  const t = useT();
  const [setStatus, { isLoading }] = useSetFreightShipmentStatusMutation();
  const act = useKeyedAction();
  // Delivered comes with a proof of delivery, never as a bare action.
  const actions = offeredActions('FREIGHT_SHIPMENT', s.status).map((a) => STATUS_MACHINES.FREIGHT_SHIPMENT.actions[a] as string).filter((to) => to !== 'Delivered');
  return (
    <Card size="small" className="bolx-freight-header">
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Space wrap>
          <Typography.Title level={5} style={{ margin: 0 }}>{s.shipNumber}</Typography.Title>
          <StatusTag kind="FREIGHT_SHIPMENT" status={s.status} />
          <Typography.Text type="secondary">BOL {s.bolNumber}</Typography.Text>
        </Space>
        <Space wrap>
          <Button icon={<PrinterOutlined />} onClick={onPrint} data-testid="print-bol">{t('freight.printBol')}</Button>
          {canWrite && actions.map((to) => (
            <Button key={to} loading={isLoading} danger={to === 'Cancelled'} data-testid={`status-${to}`}
              onClick={() => act(`status:${to}`, { shipmentId: s.shipmentId, status: to }, setStatus)}>
              {t(`freight.action.${to}`)}
            </Button>
          ))}
        </Space>
      </Space>
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} style={{ marginTop: 8 }} items={[
        { key: 'c', label: 'Client', children: s.customerName },
        { key: 'w', label: 'Warehouse', children: s.warehouseName },
        { key: 'u', label: 'Handling units', children: `${s.totalHandlingUnits} · ${s.totalPieces} pieces · ${s.totalWeightKg} kg` },
        { key: 'p', label: 'Picked up', children: s.pickedUpAt ? dayjs(s.pickedUpAt).format('YYYY-MM-DD HH:mm') : '—' },
      ]} />
      {s.handlingUnits.some((u) => u.sscc) && (
        <Table size="small" pagination={false} rowKey="handlingUnitId" scroll={{ x: 'max-content' }} style={{ marginTop: 8 }}
          dataSource={s.handlingUnits.filter((u) => u.sscc)}
          columns={[{ key: 'sscc', dataIndex: 'sscc', title: 'Pallet SSCC' }, { key: 'o', dataIndex: 'soNumber', title: 'Order' }, { key: 'd', dataIndex: 'description', title: 'Description' }]} />
      )}
    </Card>
  );
}

/** Upload (once the carrier has the freight: Picked Up, In Transit; replaces a Delivered one's), show and download the POD. */
function ProofOfDelivery({ shipment: s, canWrite }: { shipment: FreightShipmentDetail; canWrite: boolean }) {
  const t = useT();
  const store = useStore();
  const [download] = useDownload();
  const [signedBy, setSignedBy] = useState('');
  // Unset: signed now, when the file is sent (a time taken at mount could precede the pickup).
  const [signedAt, setSignedAt] = useState<Dayjs | null>(null);
  const [busy, setBusy] = useState(false);
  const podKey = useActionKey();
  const unanswered = useRef<{ key: string; at: string } | null>(null);
  const open = ['Picked Up', 'In Transit', 'Delivered'].includes(s.status);
  const send = async (file: File) => {
    if (!signedBy.trim()) {
      notifyError('Who signed for the freight?');
      return;
    }
    setBusy(true);
    // The same file sent again for the same signature (a retry after no answer) is the same action: its key and time.
    const idempotencyKey = podKey.begin({ shipmentId: s.shipmentId, signedBy, signedAt: signedAt?.toISOString() ?? null, file: [file.name, file.size] });
    if (unanswered.current?.key !== idempotencyKey) unanswered.current = { key: idempotencyKey, at: dayjs().toISOString() };
    const at = signedAt?.toISOString() ?? unanswered.current.at;
    const result = await startUpload(store as never, {
      url: FREIGHT_PATHS.uploadPod, fields: { shipmentId: s.shipmentId, signedBy, signedAt: at }, file, idempotencyKey,
    }).done;
    const answered = result.status !== 0;
    podKey.settle(answered);
    if (answered) unanswered.current = null;
    setBusy(false);
    if (result.ok) {
      notifySuccess(result.message);
      store.dispatch({ type: 'api/invalidateTags', payload: ['Freight'] });
    } else if (!answered && !('aborted' in result && result.aborted)) notifyError('No answer from the server: upload the same file again, it counts once.');
    else notifyError(`Error: ${typeof result.details === 'string' ? result.details : result.message}`);
  };
  return (
    <Card size="small" title={t('freight.sec.pod')}>
      {s.proofOfDelivery && (
        <Alert type="success" showIcon style={{ marginBottom: 12 }} data-testid="pod-kept"
          message={`Signed by ${s.proofOfDelivery.signedBy} at ${dayjs(s.proofOfDelivery.signedAt).format('YYYY-MM-DD HH:mm')}`}
          description={s.proofOfDelivery.fileName}
          action={<Button icon={<DownloadOutlined />} onClick={() => download(FREIGHT_PATHS.proofOfDelivery(s.shipmentId), s.proofOfDelivery!.fileName)}>{t('freight.pod.download')}</Button>} />
      )}
      {!open ? <Typography.Text type="secondary">{t('freight.pod.none')}</Typography.Text> : canWrite && (
        <Space wrap align="end">
          <div><div className="bolx-freight-label">{t('freight.pod.signedBy')}</div><Input value={signedBy} onChange={(e) => setSignedBy(e.target.value)} maxLength={100} data-testid="pod-signed-by" /></div>
          <div><div className="bolx-freight-label">{t('freight.pod.signedAt')}</div><DatePicker showTime value={signedAt} onChange={(v) => setSignedAt(v)} format="YYYY-MM-DD HH:mm" placeholder="Now" /></div>
          <Upload accept=".pdf,.png,.jpg,.jpeg" showUploadList={false} beforeUpload={(file) => { void send(file); return false; }}>
            <Button icon={<UploadOutlined />} loading={busy} data-testid="pod-upload">{t('freight.pod.upload')}</Button>
          </Upload>
        </Space>
      )}
    </Card>
  );
}
