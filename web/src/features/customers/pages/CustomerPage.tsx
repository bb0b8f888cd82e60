import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { Customer } from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { isAdministrator } from '../../../lib/access';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseScope } from '../../../components/data-table/list-args';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { useCanWrite } from '../../../lib/use-can-write';
import { useT } from '../../../lib/i18n/use-t';
import { CustomerDetail, isCustomerTab } from '../components/CustomerDetail';
import { CustomerFormDrawer } from '../components/CustomerFormDrawer';
import { useGetCustomerFiltersLabelsQuery, useGetCustomersQuery } from '../customers-api';

/**
 * /Customer: the customer list; /Customer?customerId=N(&tab=carriers|channels|documents) opens one customer, so a
 * detail view can be linked and survives a reload.
 */
export default function CustomerPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const usertype = useAppSelector((s) => s.auth.usertype);
  const canWrite = useCanWrite('Customer') && isAdministrator(usertype);
  const drawer = useFormDrawer<Customer>();
  const { data: filters } = useGetCustomerFiltersLabelsQuery();

  const customerId = Number(params.get('customerId'));
  const tab = params.get('tab');
  const openCustomer = (id: number) => setParams({ customerId: String(id) });

  const columns = useMemo((): ColumnsType<Customer> => [
    { key: 'customerCode', dataIndex: 'customerCode', title: t('customer.fields.customerCode'), sorter: true },
    {
      key: 'customerName', title: t('customer.fields.customerName'), sorter: true,
      render: (_, c) => <a onClick={() => openCustomer(c.customerId)}>{c.customerName}</a>,
    },
    { key: 'contactPerson', dataIndex: 'contactPerson', title: t('customer.fields.contactPerson'), render: (v: string | null) => v || '—' },
    { key: 'email', dataIndex: 'email', title: t('customer.fields.email'), render: (v: string | null) => v || '—' },
    { key: 'phone', dataIndex: 'phone', title: t('customer.fields.phone'), render: (v: string | null) => v || '—' },
    { key: 'city', dataIndex: 'city', title: t('customer.fields.city'), sorter: true, render: (v: string | null) => v || '—' },
    { key: 'country', dataIndex: 'country', title: t('customer.fields.country'), sorter: true, render: (v: string | null) => v || '—' },
    {
      key: 'warehouses', title: t('customer.fields.warehouses'),
      render: (_, c) => (
        <Tooltip title={c.warehouses.map((w) => w.warehouseName).join(', ')}>
          <span>{c.warehouses.map((w) => <Tag key={w.warehouseid}>{w.warehouseCode}</Tag>)}</span>
        </Tooltip>
      ),
    },
    { key: 'isActive', title: t('customer.fields.isActive'), render: (_, c) => <StatusTag active={c.isActive} /> },
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_, c) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EyeOutlined />} aria-label={`${t('table.view')} ${c.customerName}`} onClick={() => openCustomer(c.customerId)}>
            {t('table.view')}
          </Button>
          {canWrite && (
            <Button type="link" size="small" icon={<EditOutlined />} aria-label={`${t('table.edit')} ${c.customerName}`} onClick={() => drawer.openEdit(c)}>
              {t('table.edit')}
            </Button>
          )}
        </Space>
      ),
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
  ], [t, canWrite]);

  if (customerId > 0) {
    return (
      <CustomerDetail
        customerId={customerId}
        tab={isCustomerTab(tab) ? tab : 'details'}
        onTab={(next) => setParams({ customerId: String(customerId), tab: next }, { replace: true })}
        onBack={() => setParams({})}
        canWrite={canWrite}
      />
    );
  }

  return (
    <DataTablePage<Customer>
      title={t('customer.title')}
      subtitle={t('customer.subtitle')}
      rowKey="customerId"
      columns={columns}
      useList={useGetCustomersQuery}
      filters={filters}
      searchPlaceholder={t('customer.searchPlaceholder')}
      scopeFilters={warehouseScope}
      excel={{ url: 'Warehouse/Customer/DownloadCustomerExcel', fileName: 'customers.xlsx' }}
      onAdd={canWrite ? drawer.openCreate : undefined}
      addLabel={t('customer.add')}
    >
      <CustomerFormDrawer open={drawer.open} customer={drawer.editing} onClose={drawer.close} />
    </DataTablePage>
  );
}
