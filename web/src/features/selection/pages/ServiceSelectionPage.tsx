import type { ReactNode } from 'react';
import { Card, Col, Empty, Row, Skeleton, Tag, Typography } from 'antd';
import { AppstoreOutlined, CarOutlined, CustomerServiceOutlined, HomeOutlined } from '@ant-design/icons';
import type { UserApp } from '@bolx/contracts';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { serviceSelected } from '../../../lib/state/auth-slice';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useGetAllUserAppsQuery, useSetDefaultAppMutation } from '../../../lib/api/user-module-api';
import { useT } from '../../../lib/i18n/use-t';

const APP_ICONS: Record<string, ReactNode> = {
  WMS: <HomeOutlined />,
  FREIGHT: <CarOutlined />,
  SERVICE: <CustomerServiceOutlined />,
};

/**
 * The user's apps as cards. Choosing one saves it as the default app (SetDefaultApp) and selects it; the landing
 * rules then take the user to the warehouse choice or the Dashboard.
 */
export default function ServiceSelectionPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const current = useAppSelector((s) => s.auth.selectedServiceManagement);
  const { data: apps, isLoading } = useGetAllUserAppsQuery();
  const [setDefaultApp, { isLoading: saving, originalArgs }] = useSetDefaultAppMutation();

  const choose = async (app: UserApp) => {
    const done = await runMutation(setDefaultApp(app.appId), { silentSuccess: true });
    if (done) dispatch(serviceSelected(app.appName));
  };

  return (
    <div className="bolx-page bolx-selection">
      <div className="bolx-page__heading">
        <Typography.Title level={3}>{t('selection.service.title')}</Typography.Title>
        <Typography.Text type="secondary">{t('selection.service.subtitle')}</Typography.Text>
      </div>
      {isLoading ? (
        <Skeleton active />
      ) : !apps?.length ? (
        <Empty description={t('selection.service.empty')} />
      ) : (
        <Row gutter={[20, 20]}>
          {apps.map((app) => (
            <Col key={app.appId} xs={24} sm={12} xl={8}>
              <Card
                hoverable
                className="bolx-choice-card"
                onClick={() => !saving && void choose(app)}
                loading={saving && originalArgs === app.appId}
              >
                <div className="bolx-choice-card__icon">{APP_ICONS[app.appKey] ?? <AppstoreOutlined />}</div>
                <div className="bolx-choice-card__title">
                  {app.appName}
                  {current === app.appName && <Tag color="blue">{t('selection.service.current')}</Tag>}
                </div>
                <Typography.Paragraph type="secondary" className="bolx-choice-card__text">
                  {app.description}
                </Typography.Paragraph>
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
