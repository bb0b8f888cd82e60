import { useMemo, useState } from 'react';
import { Button, Popconfirm, Space, Switch, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { EditOutlined, KeyOutlined } from '@ant-design/icons';
import type { UserListItem } from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseScope } from '../../../components/data-table/list-args';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useCanWrite } from '../../../lib/use-can-write';
import { useT } from '../../../lib/i18n/use-t';
import { isAdministrator } from '../../../lib/access';
import { ResetPasswordDrawer } from '../components/ResetPasswordDrawer';
import { UserFormDrawer } from '../components/UserFormDrawer';
import { useGetUserFiltersLabelsQuery, useGetUsersQuery, useSetUserStatusMutation } from '../users-api';
import '../components/users.css';

/** Names of a list of assignments: the first as a tag, the rest as "+N" with all of them on hover. */
function Names({ names }: { names: string[] }) {
  if (!names.length) return <span className="bolx-user-cell__sub">—</span>;
  return (
    <Tooltip title={names.length > 1 ? names.join(', ') : undefined}>
      <span className="bolx-user-names">
        <Tag className="bolx-user-names__tag">{names[0]}</Tag>
        {names.length > 1 && <Tag>+{names.length - 1}</Tag>}
      </span>
    </Tooltip>
  );
}

/** /User: users in the caller's warehouses — filters, search, paging; create, edit, enable/disable, reset password. */
export default function UserPage() {
  const t = useT();
  const usertype = useAppSelector((s) => s.auth.usertype);
  const myUsername = useAppSelector((s) => s.auth.username);
  const canWrite = useCanWrite('User') && isAdministrator(usertype);
  const drawer = useFormDrawer<UserListItem>();
  const [resetting, setResetting] = useState<UserListItem>();
  const { data: filters } = useGetUserFiltersLabelsQuery();
  const [setStatus] = useSetUserStatusMutation();
  const [busyId, setBusyId] = useState<number>();

  const toggle = async (user: UserListItem, isActive: boolean) => {
    setBusyId(user.userId);
    await runMutation(setStatus({ userId: user.userId, isActive }));
    setBusyId(undefined);
  };

  const columns = useMemo((): ColumnsType<UserListItem> => {
    const base: ColumnsType<UserListItem> = [
      {
        key: 'username', title: t('user.fields.username'), sorter: true,
        render: (_, u) => (
          <div className="bolx-user-cell">
            <span>{u.username}</span>
            <span className="bolx-user-cell__sub">{`${u.firstName} ${u.lastName}`.trim()}</span>
          </div>
        ),
      },
      { key: 'email', dataIndex: 'email', title: t('user.fields.email'), sorter: true },
      { key: 'usertype', dataIndex: 'usertype', title: t('user.fields.usertype'), sorter: true },
      { key: 'warehouses', title: t('user.fields.warehouses'), render: (_, u) => <Names names={u.warehouses.map((w) => w.warehouseName)} /> },
      { key: 'customers', title: t('user.fields.customers'), render: (_, u) => <Names names={u.customers.map((c) => c.customerName)} /> },
      {
        key: 'isActive', title: t('user.fields.isActive'),
        render: (_, u) => {
          const self = u.username === myUsername;
          const control = (
            <Switch
              size="small"
              checked={u.isActive}
              loading={busyId === u.userId}
              disabled={!canWrite || self}
              checkedChildren={t('common.active')}
              unCheckedChildren={t('common.inactive')}
              aria-label={`${t('user.fields.isActive')} ${u.username}`}
              onChange={u.isActive ? undefined : () => void toggle(u, true)}
            />
          );
          // Disabling ends the user's sessions at once, so it asks first.
          return u.isActive && canWrite && !self ? (
            <Popconfirm title={t('user.disable.confirm', { username: u.username })} okText={t('user.disable.ok')} onConfirm={() => toggle(u, false)}>
              <span>{control}</span>
            </Popconfirm>
          ) : control;
        },
      },
    ];
    if (!canWrite) return base;
    return [
      ...base,
      {
        key: 'actions', title: t('table.actions'), fixed: 'right',
        render: (_, u) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EditOutlined />} aria-label={`${t('table.edit')} ${u.username}`} onClick={() => drawer.openEdit(u)}>
              {t('table.edit')}
            </Button>
            <Tooltip title={t('user.reset.action')}>
              <Button type="link" size="small" icon={<KeyOutlined />} aria-label={`${t('user.reset.action')} ${u.username}`} onClick={() => setResetting(u)} />
            </Tooltip>
          </Space>
        ),
      },
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, canWrite, busyId, myUsername]);

  return (
    <DataTablePage<UserListItem>
      title={t('user.title')}
      subtitle={t('user.subtitle')}
      rowKey="userId"
      columns={columns}
      useList={useGetUsersQuery}
      filters={filters}
      searchPlaceholder={t('user.searchPlaceholder')}
      scopeFilters={warehouseScope}
      excel={{ url: 'Warehouse/User/DownloadUserExcel', fileName: 'users.xlsx' }}
      onAdd={canWrite ? drawer.openCreate : undefined}
      addLabel={t('user.add')}
    >
      <UserFormDrawer open={drawer.open} user={drawer.editing} onClose={drawer.close} />
      <ResetPasswordDrawer user={resetting} onClose={() => setResetting(undefined)} />
    </DataTablePage>
  );
}
