import { useEffect } from 'react';
import { Link } from 'react-router';
import { Avatar, Button, Card, Col, Descriptions, Form, Input, Row, Select, Skeleton, Tag, Typography } from 'antd';
import { CheckCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { avatarText } from '../../../lib/identity';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useGetTimezonesQuery } from '../../../lib/api/user-module-api';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useChangePasswordMutation, useGetProfileQuery, useUpdateProfileMutation, type ProfileUpdate } from '../profile-api';

interface PasswordValues {
  previousPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The user's own name, e-mail, phone and time zone, and the change-password form. */
export default function ProfilePage() {
  const t = useT();
  const r = rules(t);
  const { data: profile, isLoading } = useGetProfileQuery();
  const { data: timezones } = useGetTimezonesQuery();
  const [updateProfile, { isLoading: saving }] = useUpdateProfileMutation();
  const [changePassword, { isLoading: changing }] = useChangePasswordMutation();
  const [profileForm] = Form.useForm<ProfileUpdate>();
  const [passwordForm] = Form.useForm<PasswordValues>();

  useEffect(() => {
    if (profile) profileForm.setFieldsValue({ ...profile, phone: profile.phone ?? '' });
  }, [profile, profileForm]);

  if (isLoading || !profile) return <Skeleton active className="bolx-page" />;

  const onSave = (values: ProfileUpdate) =>
    runMutation(updateProfile({ ...values, phone: values.phone?.trim() ? values.phone.trim() : null }));

  const onChangePassword = async (values: PasswordValues) => {
    const done = await runMutation(
      changePassword({ userId: profile.userId, previousPassword: values.previousPassword, newPassword: values.newPassword }),
    );
    if (done) passwordForm.resetFields();
  };

  return (
    <div className="bolx-page">
      <div className="bolx-page__heading">
        <Typography.Title level={3}>{t('profile.title')}</Typography.Title>
      </div>
      <Row gutter={[20, 20]}>
        <Col xs={24} xl={8}>
          <Card className="bolx-profile-card">
            <Avatar size={72} className="bolx-user__avatar">
              {avatarText(profile.username)}
            </Avatar>
            <Typography.Title level={4} style={{ marginTop: 12, marginBottom: 0 }}>
              {`${profile.firstName} ${profile.lastName}`.trim() || profile.username}
            </Typography.Title>
            <Typography.Text type="secondary">{profile.email}</Typography.Text>
            <Descriptions column={1} size="small" style={{ marginTop: 16, textAlign: 'start' }}>
              <Descriptions.Item label={t('profile.username')}>{profile.username}</Descriptions.Item>
              <Descriptions.Item label={t('profile.userType')}>{profile.usertype}</Descriptions.Item>
              <Descriptions.Item label={t('profile.email')}>
                {profile.emailVerified ? (
                  <Tag icon={<CheckCircleFilled />} color="success">
                    {t('profile.verified')}
                  </Tag>
                ) : (
                  <>
                    <Tag icon={<ExclamationCircleFilled />} color="warning">
                      {t('profile.notVerified')}
                    </Tag>
                    <Link to="/EmailVerification">{t('profile.verify')}</Link>
                  </>
                )}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={16}>
          <Card title={t('profile.details')}>
            <Form<ProfileUpdate> form={profileForm} layout="vertical" onFinish={onSave}>
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <Form.Item name="firstName" label={t('profile.firstName')} rules={[r.required('firstName')]}>
                    <Input autoComplete="given-name" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="lastName" label={t('profile.lastName')} rules={[r.required('lastName')]}>
                    <Input autoComplete="family-name" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="email" label={t('profile.email')} rules={[r.required('email'), r.email()]}>
                    <Input autoComplete="email" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="phone" label={t('profile.phone')} rules={[r.phone()]}>
                    <Input autoComplete="tel" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="timezone" label={t('profile.timezone')} rules={[{ required: true }]}>
                    <Select showSearch options={(timezones ?? [profile.timezone]).map((z) => ({ value: z, label: z }))} />
                  </Form.Item>
                </Col>
              </Row>
              <Button type="primary" htmlType="submit" loading={saving}>
                {t('profile.save')}
              </Button>
            </Form>
          </Card>
          <Card title={t('profile.changePassword')} style={{ marginTop: 20 }}>
            <Form<PasswordValues> form={passwordForm} layout="vertical" onFinish={onChangePassword}>
              <Row gutter={16}>
                <Col xs={24} md={8}>
                  <Form.Item name="previousPassword" label={t('profile.previousPassword')} rules={[r.required('previousPassword')]}>
                    <Input.Password autoComplete="current-password" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item name="newPassword" label={t('profile.newPassword')} rules={[r.required('newPassword'), r.password()]}>
                    <Input.Password autoComplete="new-password" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item
                    name="confirmPassword"
                    label={t('profile.confirmPassword')}
                    dependencies={['newPassword']}
                    rules={[r.required('rePassword'), r.sameAs('newPassword')]}
                  >
                    <Input.Password autoComplete="new-password" />
                  </Form.Item>
                </Col>
              </Row>
              <Button type="primary" htmlType="submit" loading={changing}>
                {t('profile.updatePassword')}
              </Button>
            </Form>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
