import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import type { Customer, CustomerInput } from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { AddressFields } from '../../../components/form/AddressFields';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useAddNewCustomerMutation, useUpdateCustomerMutation } from '../customers-api';

type Values = CustomerInput;

const EMPTY: Partial<Values> = { country: 'United States', isActive: true, allowBackorders: true, warehouseIds: [] };

function valuesOf(c: Customer): Partial<Values> {
  return {
    customerCode: c.customerCode, customerName: c.customerName, contactPerson: c.contactPerson, email: c.email ?? '',
    billingEmail: c.billingEmail ?? '', phone: c.phone ?? '', address1: c.address1, address2: c.address2, city: c.city ?? '',
    state: c.state ?? '', zip: c.zip ?? '', country: c.country ?? '', adjustmentApprovalThreshold: c.adjustmentApprovalThreshold,
    allowBackorders: c.allowBackorders, gs1CompanyPrefix: c.gs1CompanyPrefix ?? '', isActive: c.isActive, warehouseIds: c.warehouses.map((w) => w.warehouseid),
  };
}

/** Add or edit a customer (client): code, name, contacts, address, serving warehouses, adjustment approval, backorders. */
export function CustomerFormDrawer({ open, customer, onClose }: { open: boolean; customer?: Customer; onClose: () => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<Values>();
  const warehouses = useAppSelector((s) => s.header.data?.warehouseData ?? []);
  const [add] = useAddNewCustomerMutation();
  const [update] = useUpdateCustomerMutation();

  const submit = (v: Values) => {
    const body: Values = {
      ...v,
      contactPerson: v.contactPerson || null,
      billingEmail: v.billingEmail || null,
      address1: v.address1 || null,
      address2: v.address2 || null,
      adjustmentApprovalThreshold: v.adjustmentApprovalThreshold ?? null,
    };
    return runMutation(customer ? update({ ...body, customerId: customer.customerId }) : add(body));
  };

  return (
    <FormDrawer<Values>
      open={open}
      title={t(customer ? 'customer.form.editTitle' : 'customer.form.addTitle')}
      onClose={onClose}
      form={form}
      width={720}
      initialValues={customer ? valuesOf(customer) : EMPTY}
      onSubmit={submit}
    >
      <Row gutter={16}>
        <Col xs={24} md={10}>
          <Form.Item name="customerCode" label={t('customer.fields.customerCode')} rules={[r.required('customerCode'), r.code()]}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={14}>
          <Form.Item name="customerName" label={t('customer.fields.customerName')} rules={[r.required('name')]}>
            <Input maxLength={150} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="contactPerson" label={t('customer.fields.contactPerson')}>
            <Input maxLength={150} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="phone" label={t('customer.fields.phone')} rules={[r.required('phone'), r.phone()]}>
            <Input maxLength={20} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="email" label={t('customer.fields.email')} rules={[r.required('email'), r.email()]}>
            <Input maxLength={254} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="billingEmail" label={t('customer.fields.billingEmail')} rules={[r.email()]}>
            <Input maxLength={254} autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      <AddressFields />
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item
            name="warehouseIds"
            label={t('customer.fields.warehouses')}
            rules={[{ required: true, type: 'array', min: 1, message: t('validation.warehouse') }]}
          >
            <Select {...selectProps} mode="multiple" allowClear options={warehouses.map((w) => ({ value: w.warehouseId, label: w.warehouseName }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="adjustmentApprovalThreshold" label={t('customer.fields.adjustmentApprovalThreshold')} tooltip={t('customer.fields.adjustmentApprovalHint')}>
            <InputNumber min={0} max={1_000_000_000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="allowBackorders" label={t('customer.fields.allowBackorders')} tooltip={t('customer.fields.allowBackordersHint')} valuePropName="checked">
            <Switch checkedChildren={t('customer.fields.backordersOn')} unCheckedChildren={t('customer.fields.backordersOff')} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="gs1CompanyPrefix" label={t('customer.fields.gs1CompanyPrefix')} tooltip={t('customer.fields.gs1CompanyPrefixHint')}
            rules={[{ pattern: /^\d{7,10}$/, message: t('customer.fields.gs1CompanyPrefixValid') }]}>
            <Input inputMode="numeric" maxLength={10} placeholder="0614141" data-testid="gs1-prefix" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="isActive" label={t('customer.fields.isActive')} valuePropName="checked">
            <Switch checkedChildren={t('common.active')} unCheckedChildren={t('common.inactive')} />
          </Form.Item>
        </Col>
      </Row>
    </FormDrawer>
  );
}
