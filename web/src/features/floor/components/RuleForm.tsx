import { Col, DatePicker, Form, Input, InputNumber, Row, Select, type FormInstance } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { ORDER_LINE_SHAPES, ORDER_PRIORITY_MAX, ORDER_PRIORITY_MIN } from '@bolx/contracts';
import { useGetRuleCarrierAccountsQuery } from '../../../lib/api/floor-api';
import { useT } from '../../../lib/i18n/use-t';
import type { RuleFormValues } from '../floor-model';

/** The form's own values: the date as the picker holds it. */
export type RuleFields = Omit<RuleFormValues, 'shipDateTo'> & { shipDateTo?: Dayjs | null };

export const toRuleValues = (fields: RuleFields): RuleFormValues => ({ ...fields, shipDateTo: fields.shipDateTo ? fields.shipDateTo.format('YYYY-MM-DD') : undefined });
export const toRuleFields = (values: RuleFormValues): RuleFields => ({ ...values, shipDateTo: values.shipDateTo ? dayjs(values.shipDateTo) : undefined });

const MAX_ORDERS = 10_000;

/**
 * Which orders a rule chooses: client, requested ship date up to, carrier account and service, single or multi
 * line, priority up to, zone of the stock, and at most how many. Blank means any. Fields stack on a narrow screen.
 */
export function RuleForm({ form, customers, disabled, initialValues, onChange }: {
  form: FormInstance<RuleFields>;
  initialValues?: RuleFields;
  customers: { label: string; value: number }[];
  disabled?: boolean;
  onChange: (values: RuleFormValues) => void;
}) {
  const t = useT();
  const customerId = Form.useWatch('customerId', form);
  const { data: carriers = [], isFetching: carriersLoading } = useGetRuleCarrierAccountsQuery(customerId ?? 0, { skip: !customerId });
  const col = { xs: 24, sm: 12, xl: 6 };
  return (
    <Form<RuleFields>
      form={form}
      layout="vertical"
      disabled={disabled}
      className="bolx-floor-rule-form"
      initialValues={initialValues ?? { lineShape: 'any' }}
      onValuesChange={(changed: Partial<RuleFields>, all) => {
        // A carrier account is one client's: another client clears it.
        if ('customerId' in changed && all.carrierAccountId) {
          form.setFieldValue('carrierAccountId', undefined);
          all = { ...all, carrierAccountId: undefined };
        }
        onChange(toRuleValues(all));
      }}
    >
      <Row gutter={12}>
        <Col {...col}>
          <Form.Item name="customerId" label={t('floor.rule.customer')}>
            <Select allowClear showSearch optionFilterProp="label" placeholder={t('floor.rule.any')} options={customers} data-testid="rule-customer" />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="shipDateTo" label={t('floor.rule.shipDateTo')}>
            <DatePicker style={{ width: '100%' }} placeholder={t('floor.rule.any')} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="carrierAccountId" label={t('floor.rule.carrier')} tooltip={customerId ? undefined : t('floor.rule.carrierNeedsClient')}>
            <Select
              allowClear
              disabled={disabled || !customerId}
              loading={carriersLoading}
              placeholder={customerId ? t('floor.rule.any') : t('floor.rule.chooseClient')}
              options={carriers.map((c) => ({ label: `${c.accountName} (${c.carrierName})`, value: c.carrierAccountId }))}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="carrierService" label={t('floor.rule.service')} rules={[{ max: 64 }]}>
            <Input allowClear placeholder={t('floor.rule.any')} maxLength={64} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="lineShape" label={t('floor.rule.lineShape')}>
            <Select options={ORDER_LINE_SHAPES.map((s) => ({ label: t(`floor.lineShape.${s}`), value: s }))} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="priorityTo" label={t('floor.rule.priorityTo')}>
            <Select
              allowClear
              placeholder={t('floor.rule.any')}
              options={Array.from({ length: ORDER_PRIORITY_MAX - ORDER_PRIORITY_MIN + 1 }, (_, i) => i + ORDER_PRIORITY_MIN)
                .map((p) => ({ label: t('floor.rule.priorityOption', { priority: p }), value: p }))}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="zone" label={t('floor.rule.zone')} rules={[{ max: 16 }]} normalize={(v?: string) => v?.toUpperCase()}>
            <Input allowClear placeholder={t('floor.rule.any')} maxLength={16} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="maxOrders" label={t('floor.rule.maxOrders')}>
            <InputNumber min={1} max={MAX_ORDERS} precision={0} style={{ width: '100%' }} placeholder={t('floor.rule.noLimit')} />
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );
}
