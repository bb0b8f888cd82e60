import { Alert, Form, Input } from 'antd';
import type { UserListItem } from '@bolx/contracts';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useAdminResetPasswordMutation } from '../users-api';

interface Values {
  newPassword: string;
  confirmPassword: string;
}

/** An administrator sets a new password for a user (their sessions end; they sign in with the new one). */
export function ResetPasswordDrawer({ user, onClose }: { user?: UserListItem; onClose: () => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<Values>();
  const [reset] = useAdminResetPasswordMutation();
  return (
    <FormDrawer<Values>
      open={Boolean(user)}
      title={t('user.reset.title')}
      onClose={onClose}
      form={form}
      width={440}
      submitLabel={t('user.reset.submit')}
      onSubmit={(v) => runMutation(reset({ userId: user!.userId, newPassword: v.newPassword }))}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('user.reset.hint', { username: user?.username ?? '' })} />
      <Form.Item name="newPassword" label={t('user.reset.newPassword')} rules={[r.required('newPassword'), r.password()]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirmPassword" label={t('user.reset.confirmPassword')} dependencies={['newPassword']} rules={[r.required('rePassword'), r.sameAs('newPassword')]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </FormDrawer>
  );
}
