import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, Button, Card, Col, Form, Input, Radio, Row, Select, Space, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { LABEL_SIZES, SYMBOLOGIES } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { selectProps } from '../../../components/form/select-props';
import { useT } from '../../../lib/i18n/use-t';
import { LabelPreview } from '../components/LabelPreview';
import { PageHeading } from '../components/PageHeading';
import { WarehouseField } from '../components/WarehouseField';
import { locationTypeOptions } from '../location-type-options';
import { locationFiles, useGetLocationFilterLabelsQuery, useGetLocationTypesQuery, type PrintLabelsArgs, type PrintSelection } from '../locations-api';
import { useDebounced } from '../../../lib/use-debounced';
import { useWarehouseChoice } from '../use-warehouse-choice';
import '../locations.css';

type LabelSize = (typeof LABEL_SIZES)[number];
type Symbology = (typeof SYMBOLOGIES)[number];

interface Values {
  warehouseId?: number;
  fromCode?: string;
  toCode?: string;
  type?: string;
  zone?: string;
  labelSize: LabelSize;
  symbology: Symbology;
}

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);

/** /PrintLocations: location labels as a PDF, by code range and filters or for locations picked on the list. */
export default function PrintLocationsPage() {
  const t = useT();
  const navigate = useNavigate();
  const selection = (useLocation().state as { print?: PrintSelection } | null)?.print;
  const [form] = Form.useForm<Values>();
  const { initial, options: warehouses } = useWarehouseChoice();
  const { data: types } = useGetLocationTypesQuery();
  const { data: filterLabels } = useGetLocationFilterLabelsQuery();
  const [download, downloading] = useDownload();
  const values = Form.useWatch([], form) as Values | undefined;

  const zones = useMemo(() => filterLabels?.find((f) => f.key === 'zone')?.options ?? [], [filterLabels]);
  const warehouseName = warehouses.find((w) => w.value === (selection?.warehouseId ?? values?.warehouseId))?.label ?? t('locations.print.sampleWarehouse');
  const sampleCode = useDebounced(selection?.codes[0] ?? (values?.fromCode?.trim() || 'A-01-01-01'));

  const onFinish = (v: Values) => {
    const body: PrintLabelsArgs = selection
      ? { warehouseId: selection.warehouseId, locationIds: selection.locationIds, labelSize: v.labelSize, symbology: v.symbology }
      : {
          warehouseId: v.warehouseId!, labelSize: v.labelSize, symbology: v.symbology,
          ...(v.fromCode?.trim() ? { fromCode: v.fromCode.trim() } : {}), ...(v.toCode?.trim() ? { toCode: v.toCode.trim() } : {}),
          ...(v.type ? { type: v.type } : {}), ...(v.zone ? { zone: v.zone } : {}),
        };
    void download(locationFiles.labels(body), 'location-labels.pdf');
  };

  return (
    <div className="bolx-page">
      <PageHeading title={t('routes.PrintLocations')} subtitle={t('locations.print.subtitle')} />
      <Row gutter={[20, 20]}>
        <Col xs={24} xl={14}>
          <Card>
            <Form<Values> form={form} layout="vertical" onFinish={onFinish} initialValues={{ warehouseId: initial, labelSize: '4x2', symbology: 'both' }}>
              {selection ? (
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 16 }}
                  message={t('locations.print.selected', { count: selection.locationIds.length })}
                  description={selection.codes.slice(0, 12).join(', ') + (selection.codes.length > 12 ? ' …' : '')}
                  action={<Button size="small" onClick={() => navigate('.', { replace: true, state: null })}>{t('locations.print.byRange')}</Button>}
                />
              ) : (
                <>
                  <Typography.Title level={5}>{t('locations.print.which')}</Typography.Title>
                  <Row gutter={16}>
                    <Col xs={24} md={12}>
                      <WarehouseField />
                    </Col>
                    <Col xs={12} md={6}>
                      <Form.Item name="fromCode" label={t('locations.print.fromCode')} normalize={upper}>
                        <Input maxLength={64} placeholder={t('locations.placeholders.first')} />
                      </Form.Item>
                    </Col>
                    <Col xs={12} md={6}>
                      <Form.Item name="toCode" label={t('locations.print.toCode')} normalize={upper}>
                        <Input maxLength={64} placeholder={t('locations.placeholders.last')} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item name="type" label={t('locations.fields.locationType')}>
                        <Select {...selectProps} allowClear options={locationTypeOptions(types, t)} placeholder={t('locations.placeholders.anyType')} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item name="zone" label={t('locations.fields.zone')}>
                        <Select {...selectProps} allowClear options={zones} placeholder={t('locations.placeholders.anyZone')} />
                      </Form.Item>
                    </Col>
                  </Row>
                  <Typography.Paragraph type="secondary" className="bolx-loc-hint">
                    {t('locations.print.rangeHint')}
                  </Typography.Paragraph>
                </>
              )}
              <Typography.Title level={5}>{t('locations.print.how')}</Typography.Title>
              <Form.Item name="labelSize" label={t('locations.print.labelSize')}>
                <Radio.Group optionType="button" buttonStyle="solid" options={LABEL_SIZES.map((s) => ({ value: s, label: t(`locations.print.sizes.${s}`) }))} />
              </Form.Item>
              <Form.Item name="symbology" label={t('locations.print.symbology')}>
                <Radio.Group optionType="button" buttonStyle="solid" options={SYMBOLOGIES.map((s) => ({ value: s, label: t(`locations.print.symbologies.${s}`) }))} />
              </Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" icon={<PrinterOutlined />} loading={downloading}>
                  {t('locations.print.submit')}
                </Button>
                <Typography.Text type="secondary">{t('locations.print.limit')}</Typography.Text>
              </Space>
            </Form>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('locations.print.preview')}>
            <LabelPreview size={values?.labelSize ?? '4x2'} symbology={values?.symbology ?? 'both'} code={sampleCode} warehouse={warehouseName} />
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
              {t(`locations.print.sizeHints.${values?.labelSize ?? '4x2'}`)}
            </Typography.Paragraph>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
