import { Button, Result } from 'antd';
import { RocketOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useT } from '../../../lib/i18n/use-t';

/** An app route whose module is not built yet: a proper page inside the layout, never a blank. */
export default function ComingSoonScreen({ titleId }: { titleId: string }) {
  const t = useT();
  const navigate = useNavigate();
  const title = t(titleId);
  return (
    <Result
      icon={<RocketOutlined className="bolx-result-icon" />}
      title={title}
      subTitle={t('screens.comingSoon.subtitle', { title })}
      extra={
        <Button type="primary" onClick={() => navigate('/Dashboard')}>
          {t('errors.goHome')}
        </Button>
      }
    />
  );
}
