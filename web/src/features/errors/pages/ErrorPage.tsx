import type { ReactNode } from 'react';
import { Button, Result } from 'antd';
import type { ResultProps } from 'antd';
import { ClockCircleOutlined, DisconnectOutlined, LockOutlined, RocketOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { usePageTitle } from '../../../lib/use-page-title';

/** The full-page error screens under /error-pages/… (spec section 2, Other routes). */
type Kind = 'error-401' | 'error-403' | 'error-404' | 'error-500' | 'error-504' | 'coming-soon' | 'nointernet';

const SCREENS: Record<Kind, { ids: string; status?: ResultProps['status']; icon?: ReactNode }> = {
  'error-401': { ids: 'errors.401', icon: <LockOutlined className="bolx-result-icon" /> },
  'error-403': { ids: 'errors.403', status: '403' },
  'error-404': { ids: 'errors.404', status: '404' },
  'error-500': { ids: 'errors.500', status: '500' },
  'error-504': { ids: 'errors.504', icon: <ClockCircleOutlined className="bolx-result-icon" /> },
  'coming-soon': { ids: 'errors.comingSoon', icon: <RocketOutlined className="bolx-result-icon" /> },
  nointernet: { ids: 'errors.noInternet', icon: <DisconnectOutlined className="bolx-result-icon" /> },
};

export default function ErrorPage({ kind }: { kind: Kind }) {
  const t = useT();
  const navigate = useNavigate();
  const signedIn = useAppSelector((s) => s.auth.isAuthentication);
  const online = useAppSelector((s) => s.ui.online);
  const screen = SCREENS[kind];
  usePageTitle(t(`${screen.ids}.title`));

  const actions =
    kind === 'nointernet' ? (
      <Button type="primary" disabled={!online} onClick={() => navigate(-1)}>
        {t('errors.retry')}
      </Button>
    ) : kind === 'error-403' ? (
      <Button type="primary" onClick={() => navigate(-1)}>
        {t('errors.goBackHome')}
      </Button>
    ) : kind === 'error-401' && !signedIn ? (
      <Button type="primary" onClick={() => navigate('/')}>
        {t('errors.signIn')}
      </Button>
    ) : (
      <Button type="primary" onClick={() => navigate('/')}>
        {t('errors.goHome')}
      </Button>
    );

  return (
    <main className="bolx-error-page">
      <Result
        status={screen.status}
        icon={screen.icon}
        title={t(`${screen.ids}.title`)}
        subTitle={t(`${screen.ids}.subtitle`)}
        extra={actions}
      />
    </main>
  );
}
