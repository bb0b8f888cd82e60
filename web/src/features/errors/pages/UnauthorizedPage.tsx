import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useT } from '../../../lib/i18n/use-t';
import { usePageTitle } from '../../../lib/use-page-title';

/** Spec section 2: the screen an authorised route shows to a user without its role; the button goes back one step. */
export default function UnauthorizedPage() {
  const t = useT();
  const navigate = useNavigate();
  usePageTitle(t('errors.403.title'));
  return (
    <Result
      status="403"
      title={t('errors.403.title')}
      subTitle={t('errors.403.subtitle')}
      extra={
        <Button type="primary" onClick={() => navigate(-1)}>
          {t('errors.goBackHome')}
        </Button>
      }
    />
  );
}
