import { Button, Card, Descriptions, Result, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, EditOutlined } from '@ant-design/icons';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { toApiError } from '../../../lib/api/api-error';
import { useT } from '../../../lib/i18n/use-t';
import { useGetCustomerInfoByIdQuery } from '../customers-api';
import type { Customer } from '@bolx/contracts';
import { CustomerFormDrawer } from './CustomerFormDrawer';
import { DocumentsTab } from './DocumentsTab';
import { IntegrationsTab } from './IntegrationsTab';
import { CARRIERS, CHANNELS } from './integration-kinds';
import './customers.css';

const TABS = ['details', 'carriers', 'channels', 'documents'] as const;
export type CustomerTab = (typeof TABS)[number];
export const isCustomerTab = (v: string | null): v is CustomerTab => TABS.includes(v as CustomerTab);

/** One customer: details, and the tabs Carrier Accounts, Channel Integrations and Documents. */
export function CustomerDetail({ customerId, tab, onTab, onBack, canWrite }: {
  customerId: number;
  tab: CustomerTab;
  onTab: (tab: CustomerTab) => void;
  onBack: () => void;
  canWrite: boolean;
}) {
  const t = useT();
  const { data: customer, isLoading, error } = useGetCustomerInfoByIdQuery(customerId);
  const drawer = useFormDrawer<Customer>();

  if (isLoading) return <Skeleton active paragraph={{ rows: 10 }} className="bolx-page" />;
  if (!customer) {
    const e = error ? toApiError(error) : undefined;
    return (
      <Result
        status={e?.status === 403 ? '403' : e?.status === 404 ? '404' : 'error'}
        title={e?.details ?? t('table.loadError')}
        extra={<Button onClick={onBack}>{t('customer.back')}</Button>}
      />
    );
  }

  const address = [customer.address1, customer.address2, customer.city, [customer.state, customer.zip].filter(Boolean).join(' '), customer.country]
    .filter(Boolean).join(', ');

  return (
    <div className="bolx-page">
      <div className="bolx-customer-detail__head">
        <div>
          <Button type="link" icon={<ArrowLeftOutlined />} onClick={onBack} style={{ paddingInline: 0 }}>
            {t('customer.back')}
          </Button>
          <div className="bolx-customer-detail__title">
            <Typography.Title level={3}>{customer.customerName}</Typography.Title>
            <Tag>{customer.customerCode}</Tag>
            <StatusTag active={customer.isActive} />
          </div>
        </div>
        {canWrite && (
          <Button icon={<EditOutlined />} onClick={() => drawer.openEdit(customer)}>
            {t('customer.edit')}
          </Button>
        )}
      </div>
      <Card className="bolx-customer-detail__card">
        <Tabs
          activeKey={tab}
          onChange={(k) => onTab(k as CustomerTab)}
          items={[
            {
              key: 'details',
              label: t('customer.tabs.details'),
              children: (
                <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
                  <Descriptions.Item label={t('customer.fields.contactPerson')}>{customer.contactPerson || '—'}</Descriptions.Item>
                  <Descriptions.Item label={t('customer.fields.phone')}>{customer.phone || '—'}</Descriptions.Item>
                  <Descriptions.Item label={t('customer.fields.email')}>{customer.email || '—'}</Descriptions.Item>
                  <Descriptions.Item label={t('customer.fields.billingEmail')}>{customer.billingEmail || '—'}</Descriptions.Item>
                  <Descriptions.Item label={t('customer.fields.address')} span={2}>{address || '—'}</Descriptions.Item>
                  <Descriptions.Item label={t('customer.fields.warehouses')} span={2}>
                    <Space size={[4, 4]} wrap>
                      {customer.warehouses.map((w) => <Tag key={w.warehouseid}>{w.warehouseName}</Tag>)}
                    </Space>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('customer.fields.adjustmentApprovalThreshold')}>
                    {customer.adjustmentApprovalThreshold ?? t('customer.fields.noApproval')}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('customer.fields.allowBackorders')}>{t(customer.allowBackorders ? 'customer.fields.backordersOn' : 'customer.fields.backordersOff')}</Descriptions.Item>
                  <Descriptions.Item label={t('customer.fields.gs1CompanyPrefix')}>{customer.gs1CompanyPrefix ?? '—'}</Descriptions.Item>
                </Descriptions>
              ),
            },
            { key: 'carriers', label: t('customer.tabs.carriers'), children: <IntegrationsTab kind={CARRIERS} customerId={customerId} canWrite={canWrite} /> },
            { key: 'channels', label: t('customer.tabs.channels'), children: <IntegrationsTab kind={CHANNELS} customerId={customerId} canWrite={canWrite} /> },
            { key: 'documents', label: t('customer.tabs.documents'), children: <DocumentsTab customerId={customerId} canWrite={canWrite} /> },
          ]}
        />
      </Card>
      <CustomerFormDrawer open={drawer.open} customer={drawer.editing} onClose={drawer.close} />
    </div>
  );
}
