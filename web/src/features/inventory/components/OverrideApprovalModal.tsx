import { Alert, Form, Input, Modal } from 'antd';
import { COUNT_OVERRIDE_REASON_MAX } from '@bolx/contracts';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';

/**
 * A Super Administrator approving a count they counted: the override asks for the reason, which the server keeps
 * in the audit log and the count's history. Kept outside the sheet's form, whose read-only state would disable it.
 */
export function OverrideApprovalModal({ countNo, open, onApprove, onClose }: {
  countNo: string; open: boolean; onApprove: (reason: string) => Promise<unknown>; onClose: () => void;
}) {
  const t = useT();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open={open}
      title={t('inventory.count.overrideTitle', { countNo })}
      okText={t('inventory.count.overrideOk')}
      okButtonProps={{ danger: true }}
      cancelText={t('form.close')}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="warning" showIcon message={t('inventory.count.overrideWarning')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" preserve={false} onFinish={async (v) => { if ((await onApprove(v.reason.trim())) !== undefined) onClose(); }}>
        <Form.Item name="reason" label={t('inventory.count.overrideReason')} rules={[rules(t).required('overrideReason')]}>
          <Input.TextArea rows={3} maxLength={COUNT_OVERRIDE_REASON_MAX} showCount autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
