import { useEffect, useMemo } from 'react';
import { Col, Divider, Form, Input, Row, Select, Switch } from 'antd';
import type { UserDetails, UserListItem } from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useCreateUserMutation, useGetModuleWarehouseUsersQuery, useGetUserDetailsQuery, useUpdateUserMutation } from '../users-api';
import {
  CLIENT_USERTYPE, grantsFromDetails, grantsToRequest, keepServedCustomers, leafModules, SUPER_ADMIN_USERTYPE, uniqueCustomers, type GrantMap,
} from '../user-form-model';
import { ModuleGrantsInput } from './ModuleGrantsInput';
import { useCustomersForWarehouses } from './use-customers-for-warehouses';
import './users.css';

export interface UserFormValues {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phone?: string;
  timezone: string;
  usertype: string;
  warehouses: number[];
  customers: number[];
  customerId?: number;
  modules: GrantMap;
  isActive: boolean;
  password?: string;
  confirmPassword?: string;
}

function valuesOf(details: UserDetails, leafIds: Set<number>): UserFormValues {
  return {
    username: details.username, email: details.email, firstName: details.firstName, lastName: details.lastName,
    phone: details.phone ?? '', timezone: details.timezone, usertype: details.usertype,
    warehouses: details.warehouses.map((w) => w.warehouseId), customers: details.customers.map((c) => c.customerId),
    customerId: details.customerId ?? undefined, modules: grantsFromDetails(details, leafIds), isActive: details.isActive,
  };
}

/** Create or edit a user: identity, user type, warehouses, clients narrowed by warehouse, modules, time zone. */
export function UserFormDrawer({ open, user, onClose }: { open: boolean; user?: UserListItem; onClose: () => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<UserFormValues>();
  const { data: options, isLoading: optionsLoading } = useGetModuleWarehouseUsersQuery(undefined, { skip: !open });
  const { data: details, isFetching: detailsLoading } = useGetUserDetailsQuery(user?.userId ?? 0, { skip: !open || !user });
  const [create] = useCreateUserMutation();
  const [update] = useUpdateUserMutation();

  const usertype = Form.useWatch('usertype', form);
  const warehouseIds = Form.useWatch('warehouses', form) as number[] | undefined;
  const isClient = usertype === CLIENT_USERTYPE;
  const isSuperAdmin = usertype === SUPER_ADMIN_USERTYPE;
  const { customers, loading: customersLoading } = useCustomersForWarehouses(isClient ? [] : (warehouseIds ?? []));
  const headerCustomers = useAppSelector((s) => s.header.data?.customerData);
  const clientOptions = useMemo(() => uniqueCustomers(headerCustomers ?? []), [headerCustomers]);

  const leafIds = useMemo(() => new Set(leafModules((options?.modules ?? []).flatMap((a) => a.modules)).map((m) => m.moduleId)), [options]);

  // A chosen client no longer served by the chosen warehouses is dropped (the server would refuse it).
  useEffect(() => {
    if (customersLoading || isClient) return;
    const chosen = (form.getFieldValue('customers') as number[] | undefined) ?? [];
    const kept = keepServedCustomers(chosen, customers);
    if (kept.length !== chosen.length) form.setFieldValue('customers', kept);
  }, [customers, customersLoading, isClient, form]);

  const initialValues: Partial<UserFormValues> = user && details
    ? valuesOf(details, leafIds)
    : { timezone: 'UTC', isActive: true, warehouses: [], customers: [], modules: {} };

  const submit = (v: UserFormValues) => {
    const body = {
      username: v.username, email: v.email, firstName: v.firstName, lastName: v.lastName,
      phone: v.phone?.trim() ? v.phone.trim() : null, timezone: v.timezone, usertype: v.usertype, isActive: v.isActive,
      warehouses: isClient ? [] : (v.warehouses ?? []),
      customers: isClient ? [] : (v.customers ?? []),
      customerId: isClient ? (v.customerId ?? null) : null,
      modules: isSuperAdmin ? [] : grantsToRequest(v.modules),
    };
    return runMutation(user
      ? update({ userId: user.userId, body })
      : create({ ...body, password: v.password ?? '', confirmPassword: v.confirmPassword ?? '' }));
  };

  const requiredSelect = (message: string) => ({ required: true, message });

  return (
    <FormDrawer<UserFormValues>
      open={open}
      title={t(user ? 'user.form.editTitle' : 'user.form.addTitle')}
      onClose={onClose}
      form={form}
      width={760}
      loading={optionsLoading || (Boolean(user) && (detailsLoading || !details))}
      initialValues={initialValues}
      onSubmit={submit}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="firstName" label={t('user.fields.firstName')} rules={[r.required('firstName')]}>
            <Input maxLength={100} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="lastName" label={t('user.fields.lastName')} rules={[r.required('lastName')]}>
            <Input maxLength={100} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="username" label={t('user.fields.username')} rules={[r.required('usernameRequired'), { pattern: /^[A-Za-z0-9._-]{3,100}$/, message: t('validation.usernameFormat') }]}>
            <Input maxLength={100} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="email" label={t('user.fields.email')} rules={[r.required('email'), r.email()]}>
            <Input maxLength={254} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="phone" label={t('user.fields.phone')} rules={[r.phone()]}>
            <Input maxLength={20} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="timezone" label={t('user.fields.timezone')} rules={[requiredSelect(t('validation.timezone'))]}>
            <Select {...selectProps} options={(options?.timezones ?? []).map((z) => ({ value: z, label: z }))} />
          </Form.Item>
        </Col>
        {!user && (
          <>
            <Col xs={24} md={12}>
              <Form.Item name="password" label={t('user.fields.password')} rules={[r.required('password'), r.password()]}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="confirmPassword" label={t('user.fields.confirmPassword')} dependencies={['password']} rules={[r.required('rePassword'), r.sameAs('password')]}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          </>
        )}
      </Row>
      <Divider orientation="start" plain>{t('user.form.access')}</Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="usertype" label={t('user.fields.usertype')} rules={[requiredSelect(t('validation.usertype'))]}>
            <Select {...selectProps} options={(options?.usertypes ?? []).map((u) => ({ value: u, label: u }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="isActive" label={t('user.fields.isActive')} valuePropName="checked">
            <Switch checkedChildren={t('common.active')} unCheckedChildren={t('common.inactive')} />
          </Form.Item>
        </Col>
        {isClient ? (
          <Col span={24}>
            <Form.Item name="customerId" label={t('user.fields.customerId')} extra={t('user.fields.customerIdHint')} rules={[requiredSelect(t('validation.client'))]}>
              <Select {...selectProps} options={clientOptions.map((c) => ({ value: c.customerId, label: c.customerName }))} />
            </Form.Item>
          </Col>
        ) : (
          <>
            <Col span={24}>
              <Form.Item
                name="warehouses"
                label={t('user.fields.warehouses')}
                extra={isSuperAdmin ? t('user.fields.superAdminHint') : undefined}
                rules={isSuperAdmin ? [] : [{ required: true, type: 'array', min: 1, message: t('validation.warehouse') }]}
              >
                <Select {...selectProps} mode="multiple" allowClear options={(options?.warehouses ?? []).map((w) => ({ value: w.warehouseId, label: w.warehouseName }))} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="customers" label={t('user.fields.customers')} extra={t('user.fields.customersHint')}>
                <Select
                  {...selectProps}
                  mode="multiple"
                  allowClear
                  loading={customersLoading}
                  disabled={!warehouseIds?.length}
                  options={customers.map((c) => ({ value: c.customerId, label: c.customerName }))}
                />
              </Form.Item>
            </Col>
          </>
        )}
      </Row>
      {!isSuperAdmin && options && (
        <Form.Item name="modules" label={t('user.fields.modules')}>
          <ModuleGrantsInput apps={options.modules} />
        </Form.Item>
      )}
    </FormDrawer>
  );
}
