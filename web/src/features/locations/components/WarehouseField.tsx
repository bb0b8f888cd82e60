import { Form, Select } from 'antd';
import { selectProps } from '../../../components/form/select-props';
import { useT } from '../../../lib/i18n/use-t';
import { useWarehouseChoice } from '../use-warehouse-choice';

/** The warehouse a location form writes to (from the header's list). */
export function WarehouseField({ name = 'warehouseId' }: { name?: string }) {
  const t = useT();
  const { options, loading } = useWarehouseChoice();
  return (
    <Form.Item name={name} label={t('locations.fields.warehouse')} rules={[{ required: true, message: t('locations.validation.warehouse') }]}>
      <Select {...selectProps} loading={loading} options={options} placeholder={t('locations.placeholders.warehouse')} />
    </Form.Item>
  );
}
