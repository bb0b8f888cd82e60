import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { Alert, Button, Checkbox, Col, Form, Input, InputNumber, Row, Select, Space, Switch } from 'antd';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { locationTypeOptions } from '../location-type-options';
import { useCreateLocationsByPatternMutation, useGetLocationTypesQuery, usePreviewLocationPatternQuery } from '../locations-api';
import { rangeValue, toPatternArgs, type PatternFormValues } from '../pattern-args';
import { useDebounced } from '../../../lib/use-debounced';
import { useWarehouseChoice } from '../use-warehouse-choice';
import { PatternPreview } from './PatternPreview';
import { WarehouseField } from './WarehouseField';

const SEPARATORS = ['-', '.', '_', '/', ''] as const;

/** From–to inputs of one segment; each side a number or one letter. */
function RangeField({ name, label, required = true }: { name: 'aisles' | 'racks' | 'levels' | 'bins'; label: string; required?: boolean }) {
  const t = useT();
  const rule = { validator: (_: unknown, v: string | undefined) => (!required || rangeValue(v) !== undefined ? Promise.resolve() : Promise.reject(new Error(t('locations.validation.rangeValue')))) };
  return (
    <Form.Item label={label} required={required} style={{ marginBottom: 0 }}>
      <Space.Compact block>
        <Form.Item name={[name, 'from']} rules={[rule]} style={{ width: '50%' }}>
          <Input addonBefore={t('locations.pattern.from')} maxLength={4} aria-label={`${label} ${t('locations.pattern.from')}`} />
        </Form.Item>
        <Form.Item name={[name, 'to']} rules={[rule]} style={{ width: '50%' }}>
          <Input addonBefore={t('locations.pattern.to')} maxLength={4} aria-label={`${label} ${t('locations.pattern.to')}`} />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}

/** Bulk creation by zone-aisle-rack-level(-bin) ranges, with a live preview of the codes and their count. */
export function PatternForm() {
  const t = useT();
  const [form] = Form.useForm<PatternFormValues>();
  const { initial } = useWarehouseChoice();
  const { data: types } = useGetLocationTypesQuery();
  const values = Form.useWatch([], form) as PatternFormValues | undefined;
  // Debounced by content: the watched values are a new object on every render.
  const argsKey = useDebounced(JSON.stringify(values ? toPatternArgs(values) : null));
  const args = useMemo(() => JSON.parse(argsKey) as ReturnType<typeof toPatternArgs>, [argsKey]);
  const preview = usePreviewLocationPatternQuery(args ?? skipToken);
  const [create, { isLoading }] = useCreateLocationsByPatternMutation();
  const [created, setCreated] = useState<{ count: number; firstCode: string; lastCode: string } | null>(null);

  const data = args ? preview.currentData : undefined;
  const blocked = !data || !data.withinLimit || data.conflictCount > 0 || data.count === 0 || Boolean(preview.error);

  const onFinish = async (v: PatternFormValues) => {
    const body = toPatternArgs(v);
    if (!body) return;
    const done = await runMutation(create(body));
    if (done) setCreated(done.data);
  };

  return (
    <Row gutter={[20, 20]} align="stretch">
      <Col xs={24} xl={14}>
        <Form<PatternFormValues>
          form={form}
          name="location-pattern"
          layout="vertical"
          onFinish={onFinish}
          onValuesChange={() => setCreated(null)}
          initialValues={{
            warehouseId: initial, separator: '-', padding: 2, capacity: 0, isPickable: true, useBins: false,
            aisles: { from: '1', to: '1' }, racks: { from: '1', to: '1' }, levels: { from: '1', to: '1' }, bins: { from: '1', to: '1' },
          }}
        >
          {created && (
            <Alert
              type="success"
              showIcon
              style={{ marginBottom: 16 }}
              message={t('locations.pattern.created', { count: created.count, first: created.firstCode, last: created.lastCode })}
              action={<Link to="/Location">{t('locations.create.viewList')}</Link>}
            />
          )}
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <WarehouseField />
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="type" label={t('locations.fields.locationType')} rules={[{ required: true, message: t('locations.validation.type') }]}>
                <Select {...selectProps} options={locationTypeOptions(types, t)} placeholder={t('locations.placeholders.type')} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="zone"
                label={t('locations.fields.zone')}
                normalize={(v: string) => v?.toUpperCase()}
                rules={[{ pattern: /^[A-Z0-9]{1,16}$/, message: t('locations.validation.segment') }]}
              >
                <Input maxLength={16} placeholder={t('locations.placeholders.optional')} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="separator" label={t('locations.pattern.separator')}>
                <Select {...selectProps} showSearch={false} options={SEPARATORS.map((s) => ({ value: s, label: s === '' ? t('locations.pattern.noSeparator') : s }))} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="padding" label={t('locations.pattern.padding')} tooltip={t('locations.hints.padding')}>
                <Select {...selectProps} showSearch={false} options={[0, 1, 2, 3, 4].map((n) => ({ value: n, label: n === 0 ? t('locations.pattern.noPadding') : t('locations.pattern.digits', { count: n }) }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <RangeField name="aisles" label={t('locations.fields.aisle')} />
            </Col>
            <Col xs={24} md={12}>
              <RangeField name="racks" label={t('locations.fields.rack')} />
            </Col>
            <Col xs={24} md={12}>
              <RangeField name="levels" label={t('locations.fields.level')} />
            </Col>
            <Col xs={24} md={12}>
              <Form.Item noStyle shouldUpdate={(a: PatternFormValues, b: PatternFormValues) => a.useBins !== b.useBins}>
                {({ getFieldValue }) =>
                  getFieldValue('useBins') ? (
                    <RangeField name="bins" label={t('locations.fields.bin')} />
                  ) : (
                    <Form.Item label={t('locations.fields.bin')}>
                      <Form.Item name="useBins" valuePropName="checked" noStyle>
                        <Checkbox>{t('locations.pattern.addBins')}</Checkbox>
                      </Form.Item>
                    </Form.Item>
                  )
                }
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="capacity"
                label={t('locations.fields.capacity')}
                tooltip={t('locations.hints.capacity')}
                rules={[{ required: true, message: t('locations.validation.capacity') }]}
              >
                <InputNumber min={0} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="maxWeightKg" label={t('locations.fields.maxWeightKg')}>
                <InputNumber min={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="isPickable" label={t('locations.fields.isPickable')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="description" label={t('locations.fields.description')}>
                <Input maxLength={255} />
              </Form.Item>
            </Col>
          </Row>
          <Space>
            <Button type="primary" htmlType="submit" loading={isLoading} disabled={blocked}>
              {data && data.count > 0 ? t('locations.pattern.submitCount', { count: data.count }) : t('locations.pattern.submit')}
            </Button>
            {values?.useBins && (
              <Button onClick={() => form.setFieldsValue({ useBins: false })}>{t('locations.pattern.removeBins')}</Button>
            )}
          </Space>
        </Form>
      </Col>
      <Col xs={24} xl={10}>
        <PatternPreview preview={data} error={args ? preview.error : undefined} loading={preview.isFetching} ready={Boolean(args)} justCreated={created !== null} />
      </Col>
    </Row>
  );
}
