import { Col, Form, Input, Row, Select } from 'antd';
import { useGetCountriesAndStatesQuery } from '../../lib/api/user-module-api';
import { rules } from '../../lib/form-rules';
import { useT } from '../../lib/i18n/use-t';
import { selectProps } from './select-props';

/**
 * Address block of a FormDrawer (fields address1, address2, city, state, zip, country — the warehouse and customer
 * field names). Country is picked by name; state by code from the country's states, or typed when it has none.
 */
export function AddressFields() {
  const t = useT();
  const r = rules(t);
  const form = Form.useFormInstance();
  const country = Form.useWatch('country', form) as string | undefined;
  const { data: countries = [], isLoading } = useGetCountriesAndStatesQuery();
  const states = countries.find((c) => c.name === country)?.states ?? [];

  return (
    <Row gutter={16}>
      <Col span={24}>
        <Form.Item name="address1" label={t('form.address.address1')}>
          <Input maxLength={200} autoComplete="address-line1" />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="address2" label={t('form.address.address2')}>
          <Input maxLength={200} autoComplete="address-line2" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="country" label={t('form.address.country')} rules={[r.required('country')]}>
          <Select
            {...selectProps}
            loading={isLoading}
            placeholder={t('table.search', { placeholder: t('form.address.country') })}
            options={countries.map((c) => ({ value: c.name, label: c.name }))}
            onChange={() => form.setFieldValue('state', undefined)}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="state" label={t('form.address.state')} rules={[r.required('state')]}>
          {states.length ? (
            <Select
              {...selectProps}
              placeholder={t('table.search', { placeholder: t('form.address.state') })}
              options={states.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
            />
          ) : (
            <Input maxLength={100} autoComplete="address-level1" />
          )}
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="city" label={t('form.address.city')} rules={[r.required('city'), r.city()]}>
          <Input maxLength={100} autoComplete="address-level2" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="zip" label={t('form.address.zip')} rules={[r.required('zip'), r.zip()]}>
          <Input maxLength={10} autoComplete="postal-code" />
        </Form.Item>
      </Col>
    </Row>
  );
}
