import { DatePicker, Form, Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { useT } from '../../../../lib/i18n/use-t';
import { FILE_LIMITS, SHEETS } from './file-rules';
import { FilePicker, FormFooter, ScopeNote, TemplateLink, useAddDataScope } from './panel-parts';
import { useUploadRunner } from './use-upload-runner';
import { TEMPLATE_NEEDS } from './cards';

interface RoValues { supplier?: string; expectedDeliveryDate?: Dayjs; files?: File[] }

/** RO: Supplier, Expected Delivery Date, documents → UploadReceivingOrder, one upload (and card) per file. */
export function RoForm({ onStarted }: { onStarted: () => void }) {
  const t = useT();
  const [form] = Form.useForm<RoValues>();
  const files = Form.useWatch('files', form) ?? [];
  const { warehouseId, customerId } = useAddDataScope();
  const { start } = useUploadRunner();
  const ready = warehouseId > 0 && customerId > 0;
  const submit = (v: RoValues) => {
    for (const file of v.files ?? []) {
      start('RO', {
        url: 'Warehouse/Receiving/UploadReceivingOrder', file,
        fields: { warehouseId, customerId, supplier: v.supplier?.trim(), expectedDeliveryDate: v.expectedDeliveryDate?.format('YYYY-MM-DD') },
      }, [{ type: 'ReceivingOrder', id: 'LIST' }, { type: 'ReceivingOrder', id: 'REPORTS' }, 'Dashboard']);
    }
    onStarted();
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} className="bolx-add-data-form">
      <ScopeNote needsCustomer />
      <Form.Item name="supplier" label={t('addData.fields.supplier')} required rules={[{ max: 128 }]}>
        <Input maxLength={128} autoComplete="off" />
      </Form.Item>
      <Form.Item name="expectedDeliveryDate" label={t('addData.fields.expectedDeliveryDate')} required>
        <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
      </Form.Item>
      <Form.Item name="files" label={t('addData.fields.roDocuments')} extra={t('addData.hints.ro')}>
        <FilePicker max={FILE_LIMITS.ro} kinds={SHEETS} />
      </Form.Item>
      <TemplateLink url="Warehouse/Receiving/DownloadReceivingOrderTemplate" fileName="receiving-order-template.xlsx" need={TEMPLATE_NEEDS.ro} />
      <FormFooter label={t('addData.submit')} disabled={!ready || files.length === 0} />
    </Form>
  );
}
