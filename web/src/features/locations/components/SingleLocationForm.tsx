import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Col, Form, Row } from 'antd';
import type { LocationInput } from '@bolx/contracts';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useCreateLocationMutation } from '../locations-api';
import { useWarehouseChoice } from '../use-warehouse-choice';
import { LocationFields } from './LocationFields';
import { WarehouseField } from './WarehouseField';

type Values = Omit<LocationInput, 'zone' | 'aisle' | 'rack' | 'level' | 'bin' | 'description'> &
  Partial<Record<'zone' | 'aisle' | 'rack' | 'level' | 'bin' | 'description', string | null>>;

const blankToNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/** Creates one location; after each one the code is cleared so the next can be typed straight away. */
export function SingleLocationForm() {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const { initial } = useWarehouseChoice();
  const [create, { isLoading }] = useCreateLocationMutation();
  const [lastCode, setLastCode] = useState<string | null>(null);

  const onFinish = async (v: Values) => {
    const done = await runMutation(
      create({
        ...v,
        zone: blankToNull(v.zone), aisle: blankToNull(v.aisle), rack: blankToNull(v.rack), level: blankToNull(v.level),
        bin: blankToNull(v.bin), description: blankToNull(v.description), maxWeightKg: v.maxWeightKg ?? null,
      }),
    );
    if (done) {
      setLastCode(done.data.locationCode);
      form.setFieldsValue({ locationCode: '' });
    }
  };

  return (
    <Form<Values>
      form={form}
      name="single-location"
      layout="vertical"
      onFinish={onFinish}
      initialValues={{ warehouseId: initial, capacity: 0, isPickable: true }}
      onValuesChange={() => setLastCode(null)}
    >
      {lastCode && (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('locations.create.created', { code: lastCode })}
          action={<Link to="/Location">{t('locations.create.viewList')}</Link>}
        />
      )}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <WarehouseField />
        </Col>
      </Row>
      <LocationFields />
      <Button type="primary" htmlType="submit" loading={isLoading}>
        {t('locations.create.submit')}
      </Button>
    </Form>
  );
}
