import { useEffect } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { resetLinkCleared, resetLinkFailed, resetLinkSent } from '../../../lib/state/header-slice';
import { toApiError } from '../../../lib/api/api-error';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useSendResetLinkMutation } from '../auth-api';
import { AuthCard } from '../components/AuthCard';

/** Spec section 2 and 4, Forgot flow: userId 0 in the answer means 'Invalid Email/Username!'. */
export default function ForgotPasswordPage() {
  const t = useT();
  const r = rules(t);
  const dispatch = useAppDispatch();
  const [sendResetLink, { isLoading }] = useSendResetLinkMutation();
  const { resetLinkError, resetLinkMessage } = useAppSelector((s) => s.header);

  useEffect(() => {
    dispatch(resetLinkCleared());
    return () => void dispatch(resetLinkCleared());
  }, [dispatch]);

  const onFinish = async ({ emailOrUsername }: { emailOrUsername: string }) => {
    try {
      const result = await sendResetLink({ emailOrUsername: emailOrUsername.trim() }).unwrap();
      dispatch(resetLinkSent({ ...result, invalidMessage: t('validation.invalidEmailUsername'), now: Date.now() }));
    } catch (error) {
      dispatch(resetLinkFailed(toApiError(error).details));
    }
  };

  return (
    <AuthCard
      titleId="auth.forgot.title"
      subtitleId="auth.forgot.subtitle"
      footer={{ textId: 'auth.footer.havePassword', linkId: 'auth.footer.signIn', to: '/' }}
    >
      {resetLinkError && <Alert type="error" showIcon message={resetLinkError} className="bolx-auth__alert" />}
      {resetLinkMessage && (
        <Alert type="success" showIcon message={t('auth.forgot.sent')} description={resetLinkMessage} className="bolx-auth__alert" />
      )}
      <Form layout="vertical" requiredMark={false} size="large" onFinish={onFinish} onValuesChange={() => dispatch(resetLinkCleared())}>
        <Form.Item name="emailOrUsername" label={t('auth.signIn.username')} rules={[r.required('username')]}>
          <Input prefix={<UserOutlined />} placeholder={t('auth.signIn.usernamePlaceholder')} autoComplete="username" autoFocus />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={isLoading}>
          {t('auth.forgot.submit')}
        </Button>
      </Form>
    </AuthCard>
  );
}
