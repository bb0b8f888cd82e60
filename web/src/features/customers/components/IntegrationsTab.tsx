import { useState } from 'react';
import { Button, Form, Input, Popconfirm, Select, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined, LockOutlined } from '@ant-design/icons';
import type { CustomerIntegration } from '@bolx/contracts';
import { FormDrawer, useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { StatusTag } from '../../../components/StatusTag';
import { TabList } from '../../../components/tab-list/TabList';
import { runMutation } from '../../../lib/api/mutation-toast';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { addableTypes, integrationBody, integrationFormValues, propKey, type IntegrationFormValues } from '../customer-model';
import type { IntegrationKind } from './integration-kinds';

/** One customer's carrier accounts or sales channels: list, add, edit, delete. Secrets only ever show masked. */
export function IntegrationsTab({ kind, customerId, canWrite }: { kind: IntegrationKind; customerId: number; canWrite: boolean }) {
  const t = useT();
  const tx = (key: string) => t(`${kind.textPrefix}.${key}`);
  const { data, isLoading, isFetching } = kind.useList(customerId);
  const drawer = useFormDrawer<CustomerIntegration>();
  const remove = kind.useDelete();
  const items = data?.items ?? [];
  const types = data?.integrations ?? [];

  const onDelete = async (item: CustomerIntegration) => {
    const done = await runMutation(remove(item), { errorText: kind.deleteErrorText });
    return done;
  };

  const columns: ColumnsType<CustomerIntegration> = [
    { key: 'integrationName', title: tx('type'), render: (_, i) => <Typography.Text strong>{i.integrationName}</Typography.Text> },
    { key: 'accountName', dataIndex: 'accountName', title: tx('accountName') },
    {
      key: 'properties', title: tx('properties'),
      render: (_, i) => (
        <Space size={[4, 4]} wrap>
          {i.properties.filter((p) => p.value).map((p) => (
            <Tag key={p.propertyId} icon={p.isSecret ? <LockOutlined /> : undefined} className="bolx-integration__prop">
              {`${p.label}: ${p.value}`}
            </Tag>
          ))}
        </Space>
      ),
    },
    { key: 'isActive', title: t('customer.fields.isActive'), render: (_, i) => <StatusTag active={i.isActive} /> },
    ...(canWrite
      ? [{
          key: 'actions', title: t('table.actions'),
          render: (_: unknown, i: CustomerIntegration) => (
            <Space size={0}>
              <Button type="link" size="small" icon={<EditOutlined />} aria-label={`${t('table.edit')} ${i.integrationName}`} onClick={() => drawer.openEdit(i)}>
                {t('table.edit')}
              </Button>
              <Popconfirm title={tx('confirmDelete')} okText={t('table.delete')} okButtonProps={{ danger: true }} onConfirm={() => onDelete(i)}>
                <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={`${t('table.delete')} ${i.integrationName}`}>
                  {t('table.delete')}
                </Button>
              </Popconfirm>
            </Space>
          ),
        }]
      : []),
  ];

  return (
    <TabList<CustomerIntegration>
      intro={tx('hint')}
      add={canWrite ? { label: tx('add'), onClick: drawer.openCreate, disabled: !isLoading && addableTypes(types, items).length === 0 } : undefined}
      columns={columns}
      rows={items}
      rowKey="uniqueid"
      loading={isFetching}
    >
      <IntegrationFormDrawer kind={kind} customerId={customerId} open={drawer.open} item={drawer.editing} onClose={drawer.close} types={addableTypes(types, items)} />
    </TabList>
  );
}

function IntegrationFormDrawer({ kind, customerId, open, item, onClose, types }: {
  kind: IntegrationKind;
  customerId: number;
  open: boolean;
  item?: CustomerIntegration;
  onClose: () => void;
  types: { integrationId: number; integrationName: string }[];
}) {
  const t = useT();
  const r = rules(t);
  const tx = (key: string) => t(`${kind.textPrefix}.${key}`);
  const [form] = Form.useForm<IntegrationFormValues>();
  const [chosen, setChosen] = useState<number>();
  const integrationId = item?.integrationId ?? chosen;
  const { data: properties = [], isFetching } = kind.useProperties(integrationId ?? 0, { skip: !open || !integrationId });
  const [create] = kind.useCreate();
  const [update] = kind.useUpdate();

  const close = () => {
    setChosen(undefined);
    onClose();
  };

  const submit = (values: IntegrationFormValues) => {
    const body = integrationBody(values, properties);
    return runMutation(item
      ? update({ id: item.uniqueid, customerId, body })
      : create({ ...body, customerId, integrationId: values.integrationId! }));
  };

  return (
    <FormDrawer<IntegrationFormValues>
      open={open}
      title={tx(item ? 'editTitle' : 'addTitle')}
      onClose={close}
      form={form}
      width={520}
      initialValues={item ? integrationFormValues(item) : { isActive: true, props: {} }}
      onSubmit={submit}
      onValuesChange={(changed) => {
        if (changed.integrationId !== undefined) setChosen(changed.integrationId);
      }}
    >
      <Form.Item name="integrationId" label={tx('type')} rules={[{ required: true, message: tx('typeRequired') }]}>
        <Select
          {...selectProps}
          disabled={Boolean(item)}
          options={item ? [{ value: item.integrationId, label: item.integrationName }] : types.map((ty) => ({ value: ty.integrationId, label: ty.integrationName }))}
        />
      </Form.Item>
      <Form.Item name="accountName" label={tx('accountName')} rules={[r.required('name')]}>
        <Input maxLength={100} autoComplete="off" />
      </Form.Item>
      {isFetching && <Typography.Text type="secondary">{t('layout.loading')}…</Typography.Text>}
      {properties.map((p) => (
        <Form.Item
          key={p.uniqueid}
          name={['props', propKey(p.uniqueid)]}
          label={p.label}
          extra={p.isSecret && item ? tx('secretKept') : undefined}
          rules={p.isRequired ? [{ required: true, whitespace: true, message: t('customer.integration.required', { label: p.label }) }] : []}
        >
          {p.isSecret ? <Input.Password autoComplete="new-password" visibilityToggle={false} maxLength={2000} /> : <Input maxLength={2000} autoComplete="off" />}
        </Form.Item>
      ))}
      <Form.Item name="isActive" label={t('customer.fields.isActive')} valuePropName="checked">
        <Switch checkedChildren={t('common.active')} unCheckedChildren={t('common.inactive')} />
      </Form.Item>
    </FormDrawer>
  );
}
