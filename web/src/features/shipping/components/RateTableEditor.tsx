import { useEffect, useState } from 'react';
import { Alert, Button, Card, Col, Empty, Form, Input, InputNumber, Row, Select, Space, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { formFieldErrors } from '../../../lib/api/api-error';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useGetCarrierAccountsQuery, useGetRateTableQuery, useSaveRateTableMutation } from '../../../lib/api/shipping-api';
import { useT } from '../../../lib/i18n/use-t';
import { BLANK_RATE_TABLE, definitionOf, formOf, formPathOf, zoneNumbers, type RateTableForm } from '../rate-table-form';

/**
 * The rate-table carrier's editor (managers): a client's carrier account priced by zones of postal prefixes, each
 * service's weight brackets with a price per zone, the dimensional divisor and the fuel and residential
 * surcharges. Checked here by the contracts' schema, then by the server; an error shows on its field.
 */
export function RateTableEditor({ customerId, canSave }: { customerId: number; canSave: boolean }) {
  const t = useT();
  const accounts = useGetCarrierAccountsQuery(customerId, { skip: !customerId });
  const [accountId, setAccountId] = useState<number>();
  const table = useGetRateTableQuery(accountId!, { skip: !accountId });
  const [save, saving] = useSaveRateTableMutation();
  const [form] = Form.useForm<RateTableForm>();
  const zones = zoneNumbers(Form.useWatch('zones', form));

  useEffect(() => { setAccountId(undefined); }, [customerId]);
  useEffect(() => {
    if (table.data) form.setFieldsValue(table.data.definition ? formOf(table.data.definition) : BLANK_RATE_TABLE);
  }, [table.data, form]);

  const submit = async (values: RateTableForm) => {
    const out = definitionOf(values);
    if ('errors' in out) {
      form.setFields(out.errors as never);
      return;
    }
    await runMutation(save({ carrierAccountId: accountId!, definition: out.definition }), {
      onError: (error) => form.setFields(formFieldErrors(error).map((f) => ({ ...f, name: formPathOf(f.name.slice(f.name[0] === 'definition' ? 1 : 0)) })) as never),
    });
  };

  if (!customerId) return <Alert type="info" showIcon message={t('shipping.rates.chooseClient')} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="rate-table-editor">
      <Select style={{ minWidth: 280 }} placeholder={t('shipping.rates.account')} value={accountId} onChange={setAccountId} aria-label={t('shipping.rates.account')}
        options={(accounts.data ?? []).map((a) => ({ value: a.carrierAccountId, label: `${a.accountName} (${a.carrierName})` }))} />
      {!accountId ? <Card><Empty description={t('shipping.rates.pickAccount')} /></Card> : (
        <Form form={form} layout="vertical" onFinish={submit} disabled={!canSave || table.isFetching} requiredMark={false}>
          {table.data && !table.data.definition && <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('shipping.rates.none')} />}
          <Row gutter={12}>
            <Col xs={12} md={6}><Form.Item name="currency" label={t('shipping.rates.currency')}><Input maxLength={3} /></Form.Item></Col>
            <Col xs={12} md={6}><Form.Item name="dimDivisor" label={t('shipping.rates.dimDivisor')} tooltip={t('shipping.rates.dimDivisorHelp')}><InputNumber min={1000} max={20000} style={{ width: '100%' }} /></Form.Item></Col>
            <Col xs={12} md={6}><Form.Item name="fuelPercent" label={t('shipping.rates.fuel')}><InputNumber min={0} max={100} step={0.25} addonAfter="%" style={{ width: '100%' }} /></Form.Item></Col>
            <Col xs={12} md={6}><Form.Item name="residentialSurcharge" label={t('shipping.rates.residential')}><InputNumber min={0} step={0.25} addonBefore="$" style={{ width: '100%' }} /></Form.Item></Col>
          </Row>
          <Typography.Title level={5}>{t('shipping.rates.zones')}</Typography.Title>
          <Form.List name="zones">
            {(fields, { add, remove }) => (
              <Space wrap align="start">
                {fields.map((f) => (
                  <Space key={f.key} size={4} align="start">
                    <Form.Item name={[f.name, 'postalPrefix']} style={{ margin: 0 }}><Input placeholder={t('shipping.rates.prefix')} style={{ width: 110 }} maxLength={10} aria-label="postal prefix" /></Form.Item>
                    <Form.Item name={[f.name, 'zone']} style={{ margin: 0 }}><InputNumber min={1} max={999} addonBefore="→" style={{ width: 100 }} aria-label="zone" /></Form.Item>
                    <Button icon={<MinusCircleOutlined />} onClick={() => remove(f.name)} aria-label="remove zone" />
                  </Space>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ postalPrefix: '', zone: (zones.at(-1) ?? 0) + 1 })}>{t('shipping.rates.addZone')}</Button>
              </Space>
            )}
          </Form.List>
          <Typography.Title level={5} style={{ marginTop: 16 }}>{t('shipping.rates.services')}</Typography.Title>
          <Form.List name="services">
            {(services, { add, remove }) => (
              <Space direction="vertical" style={{ width: '100%' }}>
                {services.map((s) => (
                  <Card key={s.key} size="small" extra={<Button type="text" danger icon={<MinusCircleOutlined />} onClick={() => remove(s.name)} aria-label="remove service" />}>
                    <Row gutter={12}>
                      <Col xs={12} md={5}><Form.Item name={[s.name, 'code']} label={t('shipping.rates.code')}><Input maxLength={32} /></Form.Item></Col>
                      <Col xs={12} md={7}><Form.Item name={[s.name, 'name']} label={t('shipping.rates.name')}><Input maxLength={64} /></Form.Item></Col>
                      <Col xs={12} md={6}><Form.Item name={[s.name, 'transitDays']} label={t('shipping.rates.transitDays')}><InputNumber min={0} max={30} style={{ width: '100%' }} /></Form.Item></Col>
                      <Col xs={12} md={6}><Form.Item name={[s.name, 'cutoff']} label={t('shipping.rates.cutoff')}><Input placeholder="17:00" maxLength={5} /></Form.Item></Col>
                    </Row>
                    <Form.List name={[s.name, 'brackets']}>
                      {(brackets, b) => (
                        <div className="bolx-shipping__brackets">
                          <Typography.Text type="secondary">{t('shipping.rates.brackets')}</Typography.Text>
                          {brackets.map((br) => (
                            <Space key={br.key} wrap align="start" style={{ display: 'flex', marginTop: 6 }}>
                              <Form.Item name={[br.name, 'maxKg']} style={{ margin: 0 }}><InputNumber min={0.01} max={10000} addonBefore="≤" addonAfter="kg" style={{ width: 150 }} aria-label="max kg" /></Form.Item>
                              {zones.map((z) => (
                                <Form.Item key={z} name={[br.name, 'prices', String(z)]} style={{ margin: 0 }}>
                                  <InputNumber min={0} step={0.25} addonBefore={`${t('shipping.rates.zone')} ${z}`} placeholder="—" style={{ width: 150 }} aria-label={`zone ${z} price`} />
                                </Form.Item>
                              ))}
                              <Button icon={<MinusCircleOutlined />} onClick={() => b.remove(br.name)} aria-label="remove bracket" />
                            </Space>
                          ))}
                          <Button type="dashed" size="small" style={{ marginTop: 6 }} icon={<PlusOutlined />} onClick={() => b.add({ maxKg: undefined, prices: {} })}>{t('shipping.rates.addBracket')}</Button>
                        </div>
                      )}
                    </Form.List>
                  </Card>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ code: '', name: '', transitDays: 3, cutoff: '17:00', brackets: [{ maxKg: 5, prices: {} }] })}>{t('shipping.rates.addService')}</Button>
              </Space>
            )}
          </Form.List>
          {canSave && <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving.isLoading} style={{ marginTop: 16 }} data-testid="save-rate-table">{t('shipping.rates.save')}</Button>}
        </Form>
      )}
    </Space>
  );
}

