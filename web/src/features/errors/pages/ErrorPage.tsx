import type { ReactNode } from 'react';
import { Button } from 'antd';
import {
  ClockCircleOutlined, DisconnectOutlined, FileSearchOutlined, LockOutlined, RocketOutlined, StopOutlined, WarningOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { usePageTitle } from '../../../lib/use-page-title';

/**
 * The full-page error screens under /error-pages/… (spec section 2, Other routes). They are in the main bundle
 * (the no-internet page must show when the network is gone), so they use icons rather than antd's Result and
 * its illustrations, which would add 10 kB to every first visit.
 */
type Kind = 'error-401' | 'error-403' | 'error-404' | 'error-500' | 'error-504' | 'coming-soon' | 'nointernet';

const SCREENS: Record<Kind, { ids: string; code?: string; icon: ReactNode }> = {
  'error-401': { ids: 'errors.401', code: '401', icon: <LockOutlined /> },
  'error-403': { ids: 'errors.403', code: '403', icon: <StopOutlined /> },
  'error-404': { ids: 'errors.404', code: '404', icon: <FileSearchOutlined /> },
  'error-500': { ids: 'errors.500', code: '500', icon: <WarningOutlined /> },
  'error-504': { ids: 'errors.504', code: '504', icon: <ClockCircleOutlined /> },
  'coming-soon': { ids: 'errors.comingSoon', icon: <RocketOutlined /> },
  nointernet: { ids: 'errors.noInternet', icon: <DisconnectOutlined /> },
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
      <div className="bolx-result">
        <div className="bolx-result-icon">{screen.icon}</div>
        {screen.code && <div className="bolx-result__code">{screen.code}</div>}
        <h1 className="bolx-result__title">{t(`${screen.ids}.title`)}</h1>
        <p className="bolx-result__subtitle">{t(`${screen.ids}.subtitle`)}</p>
        <div className="bolx-result__extra">{actions}</div>
      </div>
    </main>
  );
}
