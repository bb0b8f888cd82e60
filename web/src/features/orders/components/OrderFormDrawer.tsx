import { useMemo } from 'react';
import { Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import {
  MSG_ORDERS, ORDER_PRIORITY_DEFAULT, ORDER_PRIORITY_MAX, ORDER_PRIORITY_MIN, ORDER_TYPES, type CreateOrderInput, type OrderType,
} from '@bolx/contracts';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { SkuSelect } from '../../../components/sku-select/SkuSelect';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useAppSelector } from '../../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { notifyInfo, notifySuccess } from '../../../lib/toast';
import { useT } from '../../../lib/i18n/use-t';
import { lotProblem, repeatedLine, toOrderLines, unitsPer, type OrderLineValues } from '../order-model';
import { useCreateOrderMutation, useGetCarrierAccountsQuery, useGetSkuPackagesQuery } from '../orders-api';

interface OrderValues {
  warehouseId?: number;
  customerId?: number;
  orderType: OrderType;
  referenceNumber: string;
  orderDate: Dayjs;
  requestedShipDate?: Dayjs;
  priority: number;
  shipToName?: string;
  shipToAddress1?: string;
  shipToAddress2?: string;
  shipToCity?: string;
  shipToState?: string;
  shipToZip?: string;
  shipToCountry?: string;
  shipToPhone?: string;
  shipToEmail?: string;
  carrierAccountId?: number;
  carrierService?: string;
  notes?: string;
  lines: OrderLineValues[];
}

/** The warehouse and client an order may be for, from the header's lists; the header's choice (or the only one) first. */
function useOrderScope() {
  const headerWarehouse = useAppSelector(selectWarehouseId);
  const headerCustomer = useAppSelector(selectCustomerId);
  const data = useAppSelector((s) => s.header.data);
  return useMemo(() => {
    const warehouses = data?.warehouseData ?? [];
    const customers = data?.customerData ?? [];
    const warehouseId = headerWarehouse && headerWarehouse > 0 ? headerWarehouse : warehouses.length === 1 ? warehouses[0].warehouseId : undefined;
    const served = customers.filter((c) => !warehouseId || c.warehouseId === warehouseId);
    const customerId = headerCustomer > 0 ? headerCustomer : served.length === 1 ? served[0].customerId : undefined;
    return { warehouses, customers, initial: { warehouseId, customerId } };
  }, [data, headerWarehouse, headerCustomer]);
}

const trimmed = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);

/**
 * The order form: warehouse and client (a client account's own, fixed), type, reference, dates, priority, ship-to,
 * one of the client's carrier accounts and its service, notes, and lines (SKU, how many of units or a package
 * level, lot). A reference the client already used answers that order: the form says so and creates nothing.
 */
export function OrderFormDrawer({ open, onClose, onCreated, clientAccount }: { open: boolean; onClose: () => void; onCreated: (orderId: number) => void; clientAccount: boolean }) {
  const t = useT();
  const [form] = Form.useForm<OrderValues>();
  const { warehouses, customers, initial } = useOrderScope();
  const [create] = useCreateOrderMutation();
  const warehouseId = Form.useWatch('warehouseId', form) as number | undefined;
  const customerId = Form.useWatch('customerId', form) as number | undefined;
  const { data: carriers = [], isFetching: carriersLoading } = useGetCarrierAccountsQuery(customerId ?? 0, { skip: !customerId });
  const customerOptions = useMemo(() => {
    const seen = new Set<number>();
    return customers
      .filter((c) => (!warehouseId || c.warehouseId === warehouseId) && !seen.has(c.customerId) && seen.add(c.customerId))
      .map((c) => ({ value: c.customerId, label: c.customerName }));
  }, [customers, warehouseId]);

  const submit = async (v: OrderValues) => {
    // The whole lines as the form holds them (with each level's units, which no field shows).
    const lines = form.getFieldValue('lines') as OrderLineValues[];
    const body: CreateOrderInput = {
      warehouseId: v.warehouseId!, customerId: v.customerId!, orderType: v.orderType, referenceNumber: v.referenceNumber.trim(),
      orderDate: v.orderDate.format('YYYY-MM-DD'), priority: v.priority,
      ...(v.requestedShipDate ? { requestedShipDate: v.requestedShipDate.format('YYYY-MM-DD') } : {}),
      ...Object.fromEntries((['shipToName', 'shipToAddress1', 'shipToAddress2', 'shipToCity', 'shipToState', 'shipToZip', 'shipToCountry', 'shipToPhone', 'shipToEmail', 'carrierService', 'notes'] as const)
        .map((k) => [k, trimmed(v[k])]).filter(([, x]) => x !== undefined)),
      ...(v.carrierAccountId ? { carrierAccountId: v.carrierAccountId } : {}),
      lines: toOrderLines(lines),
    };
    const done = await runMutation(create(body), { silentSuccess: true });
    if (!done) return undefined;
    if (done.data.duplicate) notifyInfo(t('outbound.form.duplicate', { reference: done.data.referenceNumber, so: done.data.soNumber }));
    else notifySuccess(done.message);
    onCreated(done.data.orderId);
    return done;
  };

  const full = { xs: 24 };
  const half = { xs: 24, md: 12 };
  const third = { xs: 24, md: 8 };
  return (
    <FormDrawer<OrderValues>
      open={open}
      title={t('outbound.form.title')}
      onClose={onClose}
      form={form}
      width={860}
      initialValues={{ ...initial, orderType: 'Sales', orderDate: dayjs(), priority: ORDER_PRIORITY_DEFAULT, lines: [{}] }}
      onSubmit={submit}
      onValuesChange={(changed) => {
        // Another client's SKUs and carriers do not belong on this order.
        if ('customerId' in changed) form.setFieldsValue({ lines: [{}], carrierAccountId: undefined });
      }}
    >
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item name="warehouseId" label={t('outbound.fields.warehouse')} rules={[{ required: true, message: t('validation.warehouse') }]}>
            <Select {...selectProps} options={warehouses.map((w) => ({ value: w.warehouseId, label: w.warehouseName }))}
              onChange={() => { if (!clientAccount) form.setFieldValue('customerId', undefined); }} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="customerId" label={t('outbound.fields.customer')} rules={[{ required: true, message: t('outbound.form.customerFirst') }]}>
            <Select {...selectProps} disabled={clientAccount} options={customerOptions} />
          </Form.Item>
        </Col>
        <Col {...third}>
          <Form.Item name="orderType" label={t('outbound.fields.orderType')} rules={[{ required: true, message: MSG_ORDERS.orderType }]}>
            <Select {...selectProps} options={ORDER_TYPES.map((o) => ({ value: o, label: t(`outbound.type.${o}`) }))} />
          </Form.Item>
        </Col>
        <Col {...third}>
          <Form.Item name="referenceNumber" label={t('outbound.fields.referenceNumber')} rules={[{ required: true, whitespace: true, message: MSG_ORDERS.referenceNumber }, { max: 64 }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col {...third}>
          <Form.Item name="priority" label={t('outbound.fields.priority')} rules={[{ required: true }]}>
            <Select {...selectProps} options={priorityOptions(t)} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="orderDate" label={t('outbound.fields.orderDate')} rules={[{ required: true, message: MSG_ORDERS.orderDate }]}>
            <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="requestedShipDate" label={t('outbound.fields.requestedShipDate')}>
            <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
          </Form.Item>
        </Col>
      </Row>
      <Typography.Title level={5}>{t('outbound.form.shipTo')}</Typography.Title>
      <Row gutter={16}>
        <Col {...full}><Form.Item name="shipToName" label={t('outbound.fields.shipToName')} rules={[{ max: 128 }]}><Input maxLength={128} autoComplete="name" /></Form.Item></Col>
        <Col {...half}><Form.Item name="shipToAddress1" label={t('form.address.address1')} rules={[{ max: 255 }]}><Input maxLength={255} autoComplete="address-line1" /></Form.Item></Col>
        <Col {...half}><Form.Item name="shipToAddress2" label={t('form.address.address2')} rules={[{ max: 255 }]}><Input maxLength={255} autoComplete="address-line2" /></Form.Item></Col>
        <Col {...third}><Form.Item name="shipToCity" label={t('form.address.city')} rules={[{ max: 100 }]}><Input maxLength={100} /></Form.Item></Col>
        <Col {...third}><Form.Item name="shipToState" label={t('form.address.state')} rules={[{ max: 100 }]}><Input maxLength={100} /></Form.Item></Col>
        <Col {...third}><Form.Item name="shipToZip" label={t('form.address.zip')} rules={[{ max: 20 }]}><Input maxLength={20} /></Form.Item></Col>
        <Col {...third}><Form.Item name="shipToCountry" label={t('form.address.country')} rules={[{ max: 100 }]}><Input maxLength={100} /></Form.Item></Col>
        <Col {...third}><Form.Item name="shipToPhone" label={t('outbound.fields.shipToPhone')} rules={[{ max: 40 }]}><Input maxLength={40} autoComplete="tel" /></Form.Item></Col>
        <Col {...third}><Form.Item name="shipToEmail" label={t('outbound.fields.shipToEmail')} rules={[{ type: 'email', message: 'Not a valid e-mail address' }, { max: 254 }]}><Input maxLength={254} autoComplete="email" /></Form.Item></Col>
        <Col {...half}>
          <Form.Item name="carrierAccountId" label={t('outbound.fields.carrierAccount')}
            extra={customerId && !carriersLoading && carriers.length === 0 ? t('outbound.form.noCarriers') : undefined}>
            <Select {...selectProps} allowClear loading={carriersLoading} disabled={!customerId || carriers.length === 0}
              placeholder={!customerId ? t('outbound.form.customerFirst') : undefined}
              options={carriers.map((c) => ({ value: c.carrierAccountId, label: `${c.accountName} (${c.carrierName})` }))} />
          </Form.Item>
        </Col>
        <Col {...half}><Form.Item name="carrierService" label={t('outbound.fields.carrierService')} rules={[{ max: 64 }]}><Input maxLength={64} placeholder="Ground" /></Form.Item></Col>
        <Col {...full}><Form.Item name="notes" label={t('outbound.fields.notes')} rules={[{ max: 1000 }]}><Input.TextArea maxLength={1000} autoSize={{ minRows: 1, maxRows: 4 }} /></Form.Item></Col>
      </Row>
      <Typography.Title level={5}>{t('outbound.form.lines')}</Typography.Title>
      <Form.List name="lines" rules={[{ validator: (_, lines: unknown[]) => (lines?.length ? Promise.resolve() : Promise.reject(new Error(MSG_ORDERS.lines))) }]}>
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => (
              <OrderLineRow key={field.key} name={field.name} index={index} customerId={customerId} canRemove={fields.length > 1} onRemove={() => remove(field.name)} />
            ))}
            <Form.ErrorList errors={errors} />
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({})} disabled={fields.length >= 1000}>{t('outbound.form.addLine')}</Button>
          </>
        )}
      </Form.List>
    </FormDrawer>
  );
}

const priorityOptions = (t: ReturnType<typeof useT>) =>
  Array.from({ length: ORDER_PRIORITY_MAX - ORDER_PRIORITY_MIN + 1 }, (_, i) => i + ORDER_PRIORITY_MIN)
    .map((p) => ({ value: p, label: t('outbound.priorityOption', { priority: p }) }));

/** One line: SKU, how many, of units or one of the SKU's package levels (the units it makes shown), and a lot. */
function OrderLineRow({ name, index, customerId, canRemove, onRemove }: { name: number; index: number; customerId?: number; canRemove: boolean; onRemove: () => void }) {
  const t = useT();
  const form = Form.useFormInstance<OrderValues>();
  const line = (Form.useWatch(['lines', name], form) ?? {}) as OrderLineValues;
  const { data: packages } = useGetSkuPackagesQuery(line.skuId ?? 0, { skip: !line.skuId });
  const units = unitsPer(packages, line.packageId);
  const label = (text: string) => (index === 0 ? text : undefined);
  return (
    <Row gutter={8} align="top" className="bolx-order-form__line">
      <Col xs={24} md={9}>
        <Form.Item name={[name, 'skuId']} label={label(t('outbound.fields.sku'))} rules={[
          { required: true, message: MSG_ORDERS.sku },
          { validator: () => { const n = repeatedLine(form.getFieldValue('lines') as OrderLineValues[], index); return n ? Promise.reject(new Error(t('outbound.form.duplicateLine', { n }))) : Promise.resolve(); } },
        ]}>
          <SkuSelect customerId={customerId} requireCustomer onChange={(skuId, sku) => {
            form.setFieldValue(['lines', name], { ...line, skuId, packageId: undefined, unitsPerPackage: undefined, skuCode: sku?.skuCode, lotTracked: sku?.isLotTracked });
          }} />
        </Form.Item>
      </Col>
      <Col xs={8} md={4}>
        <Form.Item name={[name, 'count']} label={label(t('outbound.fields.quantity'))} rules={[{ required: true, message: MSG_ORDERS.quantity }]}
          extra={units > 1 && line.count ? t('outbound.form.lineUnits', { units: line.count * units }) : undefined}>
          <InputNumber min={1} max={10_000_000} precision={0} style={{ width: '100%' }} aria-label={t('outbound.fields.quantity')} />
        </Form.Item>
      </Col>
      <Col xs={16} md={5}>
        <Form.Item name={[name, 'packageId']} label={label(t('outbound.fields.package'))}>
          <Select {...selectProps} allowClear placeholder={t('outbound.form.units')} disabled={!packages?.length} aria-label={t('outbound.fields.package')}
            onChange={(packageId?: number) => form.setFieldValue(['lines', name, 'unitsPerPackage'], unitsPer(packages, packageId))}
            options={(packages ?? []).map((p) => ({ value: p.packageid, label: t('outbound.form.packageUnits', { name: p.packageName, units: unitsPer(packages, p.packageid) }) }))} />
        </Form.Item>
      </Col>
      <Col xs={20} md={5}>
        <Form.Item name={[name, 'lot']} label={label(t('outbound.fields.lot'))} rules={[
          { max: 64 },
          { validator: () => (lotProblem(form.getFieldValue(['lines', name]) as OrderLineValues) ? Promise.reject(new Error(t('outbound.form.lotNotTracked', { sku: line.skuCode ?? '' }))) : Promise.resolve()) },
        ]}>
          <Input maxLength={64} placeholder={t('outbound.form.anyLot')} disabled={line.lotTracked === false} aria-label={t('outbound.fields.lot')} />
        </Form.Item>
      </Col>
      <Col xs={4} md={1}>
        <Form.Item label={label(' ')}>
          <Button type="text" danger icon={<DeleteOutlined />} disabled={!canRemove} aria-label={t('outbound.form.removeLine', { n: index + 1 })} onClick={onRemove} />
        </Form.Item>
      </Col>
    </Row>
  );
}
