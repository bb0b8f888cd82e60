import { useNavigate } from 'react-router';
import { Avatar, Dropdown } from 'antd';
import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useT } from '../../../lib/i18n/use-t';
import { useAppSelector } from '../../../lib/hooks';
import { useLogout } from '../../../lib/session/use-logout';
import { avatarText } from '../../../lib/identity';

/** Avatar, name and user type, with 'My Profile' and 'Logout'. */
export function UserMenu({ compact }: { compact: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const logout = useLogout();
  const { username, usertype } = useAppSelector((s) => s.auth);
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          { key: 'profile', icon: <UserOutlined />, label: t('header.menu.profile') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, danger: true, label: t('header.menu.logout') },
        ],
        onClick: ({ key }) => (key === 'logout' ? void logout() : navigate('/Profile')),
      }}
    >
      <button type="button" className="bolx-user" aria-label={username ?? ''}>
        <Avatar className="bolx-user__avatar">{avatarText(username)}</Avatar>
        {!compact && (
          <span className="bolx-user__text">
            <span className="bolx-user__name">{username}</span>
            <span className="bolx-user__type">{usertype}</span>
          </span>
        )}
      </button>
    </Dropdown>
  );
}
