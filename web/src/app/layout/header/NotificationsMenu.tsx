import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Badge, Button, Dropdown, Empty, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useT } from '../../../lib/i18n/use-t';

/** Spec section 2: the notification dropdown is an empty list with a 'view all' button. */
export function NotificationsMenu() {
  const t = useT();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      popupRender={() => (
        <div className="bolx-popover-panel">
          <div className="bolx-popover-panel__title">{t('header.notifications.title')}</div>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('header.notifications.empty')} />
          <div className="bolx-popover-panel__footer">
            <Button
              type="link"
              block
              onClick={() => {
                setOpen(false);
                navigate('/error-pages/coming-soon');
              }}
            >
              {t('header.notifications.viewAll')}
            </Button>
          </div>
        </div>
      )}
    >
      <Tooltip title={t('header.notifications.title')}>
        <Button type="text" shape="circle" aria-label={t('header.notifications.title')} icon={<Badge dot={false}><BellOutlined /></Badge>} />
      </Tooltip>
    </Dropdown>
  );
}
