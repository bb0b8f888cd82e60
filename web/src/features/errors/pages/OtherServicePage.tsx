import { Button, Result, Space } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../lib/hooks';
import { serviceSelected } from '../../../lib/state/auth-slice';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useSetDefaultAppMutation } from '../../../lib/api/user-module-api';
import { useT } from '../../../lib/i18n/use-t';
import { usePageTitle } from '../../../lib/use-page-title';

/**
 * A screen of another of the user's services (apps) than the one chosen: says which service it belongs to and
 * switches to it in one click (SetDefaultApp, as the service choice does); the gate then shows the screen.
 */
export default function OtherServicePage({ appId, appName, currentAppName }: { appId: number; appName: string; currentAppName: string | null }) {
  const t = useT();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [setDefaultApp, { isLoading }] = useSetDefaultAppMutation();
  usePageTitle(t('errors.otherService.title', { app: appName }));

  const switchService = async () => {
    const done = await runMutation(setDefaultApp(appId), { silentSuccess: true });
    if (done) dispatch(serviceSelected(appName));
  };

  return (
    <Result
      status="info"
      icon={<SwapOutlined />}
      title={t('errors.otherService.title', { app: appName })}
      subTitle={currentAppName ? t('errors.otherService.subtitle', { app: appName, current: currentAppName }) : undefined}
      extra={
        <Space wrap>
          <Button onClick={() => navigate(-1)}>{t('errors.goBack')}</Button>
          <Button type="primary" icon={<SwapOutlined />} loading={isLoading} onClick={() => void switchService()}>
            {t('errors.otherService.switch', { app: appName })}
          </Button>
        </Space>
      }
    />
  );
}
