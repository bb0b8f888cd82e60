import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Button, Card, Form, Input, Result, Space, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { PIN_LENGTH } from '@bolx/contracts';
import { runMutation } from '../../../lib/api/mutation-toast';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useGetProfileQuery, useSendEmailPinMutation, useVerifyEmailPinMutation } from '../profile-api';

/** E-mail verification with a 6-digit pin ('The length of Pin should be 6 digits'). */
export default function EmailVerificationPage() {
  const t = useT();
  const r = rules(t);
  const navigate = useNavigate();
  const { data: profile } = useGetProfileQuery();
  const [sendPin, { isLoading: sending }] = useSendEmailPinMutation();
  const [verifyPin, { isLoading: verifying }] = useVerifyEmailPinMutation();
  const [expiresIn, setExpiresIn] = useState<number | null>(null);

  if (profile?.emailVerified) {
    return (
      <Result
        status="success"
        title={t('pin.verified')}
        extra={
          <Button type="primary" onClick={() => navigate('/Profile')}>
            {t('pin.back')}
          </Button>
        }
      />
    );
  }

  const onSend = async () => {
    const sent = await runMutation(sendPin());
    if (sent) setExpiresIn(sent.expiresInSeconds);
  };

  const onVerify = async ({ pin }: { pin: string }) => {
    const done = await runMutation(verifyPin({ pin }));
    if (done) navigate('/Profile');
  };

  return (
    <div className="bolx-page bolx-pin">
      <Card className="bolx-pin__card">
        <div className="bolx-pin__icon">
          <MailOutlined />
        </div>
        <Typography.Title level={3}>{t('pin.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('pin.subtitle', { email: profile?.email ?? '' })}</Typography.Paragraph>
        {expiresIn !== null && (
          <Alert type="info" showIcon message={t('pin.expires', { minutes: Math.ceil(expiresIn / 60) })} style={{ marginBottom: 16 }} />
        )}
        <Form layout="vertical" onFinish={onVerify} requiredMark={false}>
          <Form.Item name="pin" label={t('pin.label')} rules={[{ required: true, message: t('validation.pinLength') }, r.pin()]}>
            <Input.OTP length={PIN_LENGTH} formatter={(v) => v.replace(/\D/g, '')} />
          </Form.Item>
          <Space wrap>
            <Button onClick={onSend} loading={sending}>
              {expiresIn === null ? t('pin.send') : t('pin.resend')}
            </Button>
            <Button type="primary" htmlType="submit" loading={verifying}>
              {t('pin.verify')}
            </Button>
          </Space>
        </Form>
        <div style={{ marginTop: 16 }}>
          <Link to="/Profile">{t('pin.back')}</Link>
        </div>
      </Card>
    </div>
  );
}
