import { Form, Input } from 'antd';
import { useT } from '../../../../lib/i18n/use-t';
import { FILE_LIMITS, SHEETS } from './file-rules';
import { FilePicker, FormFooter, ScopeNote, TemplateLink, useAddDataScope } from './panel-parts';
import { useUploadRunner } from './use-upload-runner';
import { TEMPLATE_NEEDS } from './cards';

interface SkuValues { skuCategory?: string; files?: File[] }

/** SKU: SKU Category, file → UploadSkus for the header's client. */
export function SkuForm({ onStarted }: { onStarted: () => void }) {
  const t = useT();
  const [form] = Form.useForm<SkuValues>();
  const files = Form.useWatch('files', form) ?? [];
  const { customerId } = useAddDataScope();
  const { start } = useUploadRunner();
  const submit = (v: SkuValues) => {
    start('SKU', { url: 'warehouse/Sku/UploadSkus', file: v.files![0], fields: { customerId, skuCategory: v.skuCategory?.trim() } }, [{ type: 'Sku', id: 'LIST' }, { type: 'Sku', id: 'FILTERS' }, { type: 'Dimension', id: 'LIST' }]);
    onStarted();
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} className="bolx-add-data-form">
      <ScopeNote needsCustomer />
      <Form.Item name="skuCategory" label={t('addData.fields.skuCategory')} required rules={[{ max: 64 }]}>
        <Input maxLength={64} autoComplete="off" />
      </Form.Item>
      <Form.Item name="files" label={t('addData.fields.skuFile')} extra={t('addData.hints.sku')}>
        <FilePicker max={FILE_LIMITS.sku} kinds={SHEETS} />
      </Form.Item>
      <TemplateLink url="warehouse/Sku/DownloadSkuTemplate" fileName="sku-template.xlsx" need={TEMPLATE_NEEDS.sku} />
      <FormFooter label={t('addData.submit')} disabled={!customerId || files.length === 0} />
    </Form>
  );
}
