import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useIntl } from 'react-intl';
import { Badge, Button, Dropdown, Empty, Tooltip } from 'antd';
import {
  AuditOutlined, BarcodeOutlined, BellOutlined, BuildOutlined, CalculatorOutlined, DiffOutlined, EnvironmentOutlined, HomeOutlined, InboxOutlined,
  RetweetOutlined, SwapOutlined, TeamOutlined, UserOutlined,
} from '@ant-design/icons';
import type { HubEventName } from '@bolx/contracts';
import { useT } from '../../../lib/i18n/use-t';
import {
  allNotificationsRead, notificationRead, selectNotifications, selectUnreadCount, type HubNotification,
} from '../../../lib/hub/notifications-slice';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import './live.css';

const ICONS: Partial<Record<HubEventName, ReactNode>> = {
  ReceiveWareHousedata: <HomeOutlined />,
  ReceiveUserData: <UserOutlined />,
  ReceiveCustomerData: <TeamOutlined />,
  ReceiveSkuData: <BarcodeOutlined />,
  ReceiveInventoryData: <SwapOutlined />,
  ReceiveAdjustmentData: <DiffOutlined />,
  ReceiveCycleCountData: <CalculatorOutlined />,
  ReceiveReceivingData: <InboxOutlined />,
  ReceiveReplenishmentData: <RetweetOutlined />,
  ReceiveLocationData: <EnvironmentOutlined />,
  ReceiveKitData: <BuildOutlined />,
};

const isToday = (at: number) => new Date(at).toDateString() === new Date().toDateString();

/**
 * Spec section 2: the notification dropdown with a 'view all' button. It lists the recent live events that
 * concern the user (those the hub sends this user: their warehouses and customers), newest first, with an
 * unread count on the bell; opening one goes to the screen that lists its record.
 */
export function NotificationsMenu() {
  const t = useT();
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const items = useAppSelector(selectNotifications);
  const unread = useAppSelector(selectUnreadCount);

  const go = (path: string) => {
    setOpen(false);
    navigate(path);
  };
  const openItem = (item: HubNotification) => {
    dispatch(notificationRead(item.id));
    if (item.path) go(item.path);
  };
  const when = (at: number) =>
    isToday(at) ? intl.formatTime(at, { hour: '2-digit', minute: '2-digit' }) : intl.formatDate(at, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      popupRender={() => (
        <div className="bolx-popover-panel bolx-notifications" role="dialog" aria-label={t('header.notifications.title')}>
          <div className="bolx-popover-panel__title bolx-notifications__head">
            <span>{t('header.notifications.title')}</span>
            {unread > 0 && (
              <Button type="link" size="small" onClick={() => dispatch(allNotificationsRead())}>
                {t('header.notifications.markAllRead')}
              </Button>
            )}
          </div>
          {items.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('header.notifications.empty')} />
          ) : (
            <ul className="bolx-notifications__list">
              {items.map((item) => (
                <li key={item.id}>
                  <button type="button" className={`bolx-notifications__item${item.read ? '' : ' is-unread'}`} onClick={() => openItem(item)}>
                    <span className="bolx-notifications__icon" aria-hidden>
                      {ICONS[item.target] ?? <AuditOutlined />}
                    </span>
                    <span className="bolx-notifications__body">
                      <span className="bolx-notifications__text">{t(`hub.event.${item.subEvent}`)}</span>
                      <span className="bolx-notifications__meta">
                        {item.name && <span className="bolx-notifications__name">{item.name}</span>}
                        {item.name && ' · '}
                        <time dateTime={new Date(item.at).toISOString()}>{when(item.at)}</time>
                      </span>
                    </span>
                    {!item.read && <span className="bolx-notifications__unread" aria-label={t('header.notifications.unread')} />}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="bolx-popover-panel__footer">
            <Button type="link" block onClick={() => go('/error-pages/coming-soon')}>
              {t('header.notifications.viewAll')}
            </Button>
          </div>
        </div>
      )}
    >
      {/* The tooltip would cover the open panel's header. */}
      <Tooltip title={t('header.notifications.title')} open={open ? false : undefined}>
        <Button
          type="text"
          shape="circle"
          aria-label={unread > 0 ? t('header.notifications.titleUnread', { count: unread }) : t('header.notifications.title')}
          icon={
            <Badge count={unread} size="small" overflowCount={99}>
              <BellOutlined />
            </Badge>
          }
        />
      </Tooltip>
    </Dropdown>
  );
}
