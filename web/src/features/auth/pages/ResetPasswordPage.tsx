import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { runMutation } from '../../../lib/api/mutation-toast';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useResetPasswordWithTokenMutation } from '../auth-api';
import { AuthCard } from '../components/AuthCard';

/** Spec section 2, '/reset-password': completes the e-mailed link /reset-password?userId=…&token=… */
export default function ResetPasswordPage() {
  const t = useT();
  const r = rules(t);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const userId = Number(params.get('userId'));
  const token = params.get('token') ?? '';
  const linkValid = Number.isInteger(userId) && userId > 0 && token !== '';
  const [resetPassword, { isLoading }] = useResetPasswordWithTokenMutation();

  const onFinish = async ({ newPassword }: { newPassword: string }) => {
    const done = await runMutation(resetPassword({ userId, token, newPassword }));
    if (done) navigate('/', { replace: true });
  };

  return (
    <AuthCard
      titleId="auth.reset.title"
      subtitleId="auth.reset.subtitle"
      footer={{ textId: 'auth.footer.havePassword', linkId: 'auth.footer.signIn', to: '/' }}
    >
      {!linkValid && <Alert type="warning" showIcon message={t('auth.reset.invalidLink')} className="bolx-auth__alert" />}
      <Form layout="vertical" requiredMark={false} size="large" onFinish={onFinish} disabled={!linkValid}>
        <Form.Item name="newPassword" label={t('auth.reset.newPassword')} rules={[r.required('newPassword'), r.password()]} hasFeedback>
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('auth.reset.confirmPassword')}
          dependencies={['newPassword']}
          rules={[r.required('rePassword'), r.sameAs('newPassword')]}
          hasFeedback
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={isLoading}>
          {t('auth.reset.submit')}
        </Button>
      </Form>
    </AuthCard>
  );
}
