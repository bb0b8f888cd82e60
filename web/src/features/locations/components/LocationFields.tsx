import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { LOCATION_CODE } from '@bolx/contracts';
import { selectProps } from '../../../components/form/select-props';
import { useT } from '../../../lib/i18n/use-t';
import { locationTypeOptions } from '../location-type-options';
import { useGetLocationTypesQuery } from '../locations-api';

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);
const SEGMENT = /^[A-Z0-9]{1,16}$/;

/** One location's fields (code, type, capacity, position, weight, flags), for the create page and the edit drawer. */
export function LocationFields({ editing = false }: { editing?: boolean }) {
  const t = useT();
  const { data: types, isLoading } = useGetLocationTypesQuery();
  const segment = (name: 'zone' | 'aisle' | 'rack' | 'level' | 'bin') => (
    <Col flex="1 1 96px" key={name}>
      <Form.Item name={name} label={t(`locations.fields.${name}`)} normalize={upper} rules={[{ pattern: SEGMENT, message: t('locations.validation.segment') }]}>
        <Input maxLength={16} />
      </Form.Item>
    </Col>
  );
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item
          name="locationCode"
          label={t('locations.fields.locationCode')}
          normalize={upper}
          rules={[
            { required: true, whitespace: true, message: t('locations.validation.code') },
            { pattern: LOCATION_CODE, message: t('locations.validation.codeFormat') },
          ]}
        >
          <Input maxLength={64} placeholder="A-01-01-01" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="locationType" label={t('locations.fields.locationType')} rules={[{ required: true, message: t('locations.validation.type') }]}>
          <Select {...selectProps} loading={isLoading} options={locationTypeOptions(types, t)} placeholder={t('locations.placeholders.type')} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="capacity"
          label={t('locations.fields.capacity')}
          tooltip={t('locations.hints.capacity')}
          rules={[
            { required: true, message: t('locations.validation.capacity') },
            { type: 'integer', min: 0, message: t('locations.validation.capacityValid') },
          ]}
        >
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="maxWeightKg" label={t('locations.fields.maxWeightKg')}>
          <InputNumber min={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      {(['zone', 'aisle', 'rack', 'level', 'bin'] as const).map(segment)}
      <Col xs={24} md={editing ? 16 : 24}>
        <Form.Item name="description" label={t('locations.fields.description')}>
          <Input.TextArea maxLength={255} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Col>
      <Col xs={12} md={editing ? 4 : 6}>
        <Form.Item name="isPickable" label={t('locations.fields.isPickable')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      {editing && (
        <Col xs={12} md={4}>
          <Form.Item name="isActive" label={t('locations.fields.isActive')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      )}
    </Row>
  );
}
