import { useMemo } from 'react';
import { Col, Form, Row, Select } from 'antd';
import { useAppSelector } from '../../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { selectProps } from '../../../components/form/select-props';
import { useT } from '../../../lib/i18n/use-t';

/**
 * The warehouse and client an RO belongs to, from the header's lists; the header's choice (or the only one)
 * comes first. Changing the warehouse narrows the clients to those it serves.
 */
export function useRoScope() {
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

export function ScopeFields({ disabled }: { disabled?: boolean }) {
  const t = useT();
  const { warehouses, customers } = useRoScope();
  const form = Form.useFormInstance();
  const warehouseId = Form.useWatch('warehouseId', form) as number | undefined;
  const customerOptions = useMemo(() => {
    const seen = new Set<number>();
    return customers
      .filter((c) => (!warehouseId || c.warehouseId === warehouseId) && !seen.has(c.customerId) && seen.add(c.customerId))
      .map((c) => ({ value: c.customerId, label: c.customerName }));
  }, [customers, warehouseId]);
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item name="warehouseId" label={t('inbound.fields.warehouse')} rules={[{ required: true, message: t('validation.warehouse') }]}>
          <Select
            {...selectProps}
            disabled={disabled}
            options={warehouses.map((w) => ({ value: w.warehouseId, label: w.warehouseName }))}
            placeholder={t('inbound.placeholders.warehouse')}
            onChange={() => form.setFieldValue('customerId', undefined)}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="customerId" label={t('inbound.fields.customer')} rules={[{ required: true, message: t('inbound.validation.customer') }]}>
          <Select {...selectProps} disabled={disabled} options={customerOptions} placeholder={t('inbound.placeholders.customer')} />
        </Form.Item>
      </Col>
    </Row>
  );
}
