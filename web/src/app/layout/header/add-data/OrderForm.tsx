import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { ORDER_TYPES, type OrderType } from '@bolx/contracts';
import { selectProps } from '../../../../components/form/select-props';
import { useT } from '../../../../lib/i18n/use-t';
import { useAppSelector } from '../../../../lib/hooks';
import { DOCUMENTS, FILE_LIMITS, SHEETS } from './file-rules';
import { FilePicker, FormFooter, ScopeNote, TemplateLink, useAddDataScope } from './panel-parts';
import { useUploadRunner } from './use-upload-runner';
import { TEMPLATE_NEEDS } from './cards';

interface OrderValues { orderType?: OrderType; orderDate?: Dayjs; referenceNumber?: string; toWarehouseId?: number; files?: File[]; documents?: File[] }

/**
 * Orders: Order Type, Order Date, Reference Number, documents (spec) and the order lines sheet → UploadOrders.
 * The form's fields fill the rows that leave them blank (one sheet may hold many orders, by Reference Number);
 * the documents are kept with each new order of the sheet.
 */
export function OrderForm({ onStarted }: { onStarted: () => void }) {
  const t = useT();
  const [form] = Form.useForm<OrderValues>();
  const files = Form.useWatch('files', form) ?? [];
  const orderType = Form.useWatch('orderType', form);
  const { warehouseId, customerId } = useAddDataScope();
  const warehouses = useAppSelector((s) => s.header.data?.warehouseData ?? []);
  const { start } = useUploadRunner();
  const ready = warehouseId > 0 && customerId > 0;
  const submit = (v: OrderValues) => {
    start('ORD', {
      url: 'Warehouse/Order/UploadOrders', file: v.files![0],
      extraFiles: (v.documents ?? []).map((file) => ({ field: 'documents', file })),
      fields: {
        warehouseId, customerId, orderType: v.orderType, orderDate: v.orderDate?.format('YYYY-MM-DD'), referenceNumber: v.referenceNumber?.trim(),
        toWarehouseId: v.orderType === 'Transfer' ? v.toWarehouseId : undefined,
      },
    }, [{ type: 'Order', id: 'LIST' }, { type: 'ReceivingOrder', id: 'LIST' }, 'Dashboard']);
    onStarted();
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} initialValues={{ orderType: 'Sales', orderDate: dayjs() }} className="bolx-add-data-form">
      <ScopeNote needsCustomer />
      <Form.Item name="orderType" label={t('addData.fields.orderType')} required>
        <Select {...selectProps} options={ORDER_TYPES.map((k) => ({ value: k, label: t(`addData.orderTypes.${k}`) }))} />
      </Form.Item>
      {orderType === 'Transfer' && (
        <Form.Item name="toWarehouseId" label={t('addData.fields.toWarehouse')} extra={t('addData.hints.toWarehouse')}>
          <Select {...selectProps} allowClear options={warehouses.filter((w) => w.warehouseId !== warehouseId).map((w) => ({ value: w.warehouseId, label: w.warehouseName }))} />
        </Form.Item>
      )}
      <Form.Item name="orderDate" label={t('addData.fields.orderDate')} required>
        <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
      </Form.Item>
      <Form.Item name="referenceNumber" label={t('addData.fields.referenceNumber')} required rules={[{ max: 64 }]}>
        <Input maxLength={64} autoComplete="off" />
      </Form.Item>
      <Form.Item name="files" label={t('addData.fields.orderLines')} extra={t('addData.hints.orders')}>
        <FilePicker max={1} kinds={SHEETS} />
      </Form.Item>
      <Form.Item name="documents" label={t('addData.fields.orderDocuments')} required>
        <FilePicker max={FILE_LIMITS.orders} kinds={DOCUMENTS} />
      </Form.Item>
      <TemplateLink url="Warehouse/Order/DownloadOrderTemplate" fileName="order-template.xlsx" need={TEMPLATE_NEEDS.orders} />
      <FormFooter label={t('addData.submit')} disabled={!ready || files.length === 0} />
    </Form>
  );
}
