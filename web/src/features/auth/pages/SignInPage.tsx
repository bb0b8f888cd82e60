import { useEffect } from 'react';
import { Alert, Button, Checkbox, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { loginErrorCleared } from '../../../lib/state/auth-slice';
import { useLoginMutation } from '../../../lib/api/session-api';
import { rememberedUsername } from '../../../lib/cookies';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { AuthCard } from '../components/AuthCard';

interface SignInValues {
  username: string;
  password: string;
  rememberMe: boolean;
}

/** Spec section 2, '/': sign in with username or e-mail. The route table takes a signed-in user onwards. */
export default function SignInPage() {
  const t = useT();
  const r = rules(t);
  const dispatch = useAppDispatch();
  const [login] = useLoginMutation();
  const { loading, error } = useAppSelector((s) => s.auth);
  const remembered = rememberedUsername();

  useEffect(() => () => void dispatch(loginErrorCleared()), [dispatch]);

  const onFinish = (values: SignInValues) => {
    void login({ username: values.username.trim(), password: values.password, rememberMe: values.rememberMe });
  };

  const errorText =
    error?.status === 429 && error.retryAfterSeconds !== undefined
      ? t('auth.signIn.throttled', { seconds: error.retryAfterSeconds })
      : error?.details;

  return (
    <AuthCard
      titleId="auth.signIn.title"
      subtitleId="auth.signIn.subtitle"
      footer={{ textId: 'auth.signIn.footer', linkId: 'auth.signIn.footerLink', to: '/forget-password' }}
    >
      {errorText && <Alert type="error" showIcon message={errorText} className="bolx-auth__alert" />}
      <Form<SignInValues>
        layout="vertical"
        requiredMark={false}
        size="large"
        initialValues={{ username: remembered ?? '', rememberMe: remembered !== null }}
        onFinish={onFinish}
        onValuesChange={() => error && dispatch(loginErrorCleared())}
      >
        <Form.Item name="username" label={t('auth.signIn.username')} rules={[r.required('username')]}>
          <Input prefix={<UserOutlined />} placeholder={t('auth.signIn.usernamePlaceholder')} autoComplete="username" autoFocus={!remembered} />
        </Form.Item>
        <Form.Item name="password" label={t('auth.signIn.password')} rules={[r.required('password')]}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('auth.signIn.passwordPlaceholder')}
            autoComplete="current-password"
            autoFocus={Boolean(remembered)}
          />
        </Form.Item>
        <Form.Item name="rememberMe" valuePropName="checked" className="bolx-auth__remember">
          <Checkbox>{t('auth.signIn.rememberMe')}</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading}>
          {t('auth.signIn.submit')}
        </Button>
      </Form>
    </AuthCard>
  );
}
