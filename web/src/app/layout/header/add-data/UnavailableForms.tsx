import { Form, Input, InputNumber, Select, Space } from 'antd';
import { selectProps } from '../../../../components/form/select-props';
import { useT } from '../../../../lib/i18n/use-t';
import { FILE_LIMITS, SHEETS } from './file-rules';
import { FilePicker, FormFooter } from './panel-parts';

/*
 * Pallets have no module on the server yet (no pallet register). The form shows the spec's fields so the panel is
 * complete, but the submit stays disabled with a notice: nothing is faked.
 */

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
