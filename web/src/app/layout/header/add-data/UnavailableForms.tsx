import { DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import { selectProps } from '../../../../components/form/select-props';
import { useT } from '../../../../lib/i18n/use-t';
import { DOCUMENTS, FILE_LIMITS, SHEETS } from './file-rules';
import { FilePicker, FormFooter } from './panel-parts';

/*
 * Orders and pallets have no module on the server yet (no orders, no pallet register). Their forms show the
 * spec's fields so the panel is complete, but the submit stays disabled with a notice: nothing is faked.
 */

export function OrderForm() {
  const t = useT();
  return (
    <Form layout="vertical" className="bolx-add-data-form">
      <Form.Item name="orderType" label={t('addData.fields.orderType')} required>
        <Select {...selectProps} options={['b2c', 'b2b', 'transfer'].map((k) => ({ value: k, label: t(`addData.orderTypes.${k}`) }))} />
      </Form.Item>
      <Form.Item name="orderDate" label={t('addData.fields.orderDate')} required>
        <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
      </Form.Item>
      <Form.Item name="referenceNumber" label={t('addData.fields.referenceNumber')} required>
        <Input maxLength={64} autoComplete="off" />
      </Form.Item>
      <Form.Item name="files" label={t('addData.fields.orderDocuments')} required>
        <FilePicker max={FILE_LIMITS.orders} kinds={DOCUMENTS} />
      </Form.Item>
      <FormFooter label={t('addData.submit')} disabled notice={t('addData.unavailable.orders')} />
    </Form>
  );
}

export function PalletForm() {
  const t = useT();
  return (
    <Form layout="vertical" className="bolx-add-data-form">
      <Form.Item name="palletType" label={t('addData.fields.palletType')} required>
        <Select {...selectProps} options={['standard', 'euro', 'custom'].map((k) => ({ value: k, label: t(`addData.palletTypes.${k}`) }))} />
      </Form.Item>
      <Form.Item label={t('addData.fields.dimensions')} required>
        <Space.Compact block>
          <Form.Item name="length" noStyle><InputNumber min={0} placeholder={t('addData.fields.length')} style={{ width: '34%' }} /></Form.Item>
          <Form.Item name="width" noStyle><InputNumber min={0} placeholder={t('addData.fields.width')} style={{ width: '33%' }} /></Form.Item>
          <Form.Item name="height" noStyle><InputNumber min={0} placeholder={t('addData.fields.height')} style={{ width: '33%' }} /></Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item name="weightCapacity" label={t('addData.fields.weightCapacity')} required>
        <InputNumber min={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="currentLocation" label={t('addData.fields.currentLocation')} required>
        <Input maxLength={32} autoComplete="off" />
      </Form.Item>
      <Form.Item name="files" label={t('addData.fields.palletFile')}>
        <FilePicker max={FILE_LIMITS.pallets} kinds={SHEETS} />
      </Form.Item>
      <FormFooter label={t('addData.submit')} disabled notice={t('addData.unavailable.pallets')} />
    </Form>
  );
}
