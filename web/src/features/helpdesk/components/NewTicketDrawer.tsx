import { Alert, Col, Form, Input, Row, Select } from 'antd';
import { TICKET_CATEGORIES, TICKET_LINK_KINDS, TICKET_PRIORITIES, type TicketCategory, type TicketLinkKind, type TicketPriority } from '@bolx/contracts';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { rules } from '../../../lib/form-rules';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { staffWrite } from '../../../lib/access';
import { useMayAccess } from '../../../lib/use-access';
import { useCreateTicketMutation, useGetAssigneesQuery } from '../helpdesk-api';
import { useKeyedAction } from '../../../lib/action-key';

interface Values {
  title: string; description?: string; category: TicketCategory; priority: TicketPriority; assigneeId?: number; linkKind?: TicketLinkKind; linkNumber?: string;
}

/**
 * A new ticket for the header's warehouse and client, or about a document named by its number (the ticket then
 * belongs to that document's warehouse and client). Staff may assign it at once.
 */
export function NewTicketDrawer({ open, link, onClose, onCreated }: {
  open: boolean;
  /** The document the ticket is about (a document's "Open a ticket about this"), filled in. */
  link?: { kind: TicketLinkKind; number: string };
  onClose: () => void;
  onCreated: (ticketId: number) => void;
}) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<Values>();
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId) || 0;
  const staff = useMayAccess()(staffWrite('HelpDesk'));
  const assignees = useGetAssigneesQuery({ warehouseId, customerId }, { skip: !open || !staff || !warehouseId || !customerId });
  const [create] = useCreateTicketMutation();
  const act = useKeyedAction();
  const linkKind = Form.useWatch('linkKind', form);
  const scoped = warehouseId > 0 && customerId > 0;

  const submit = async (v: Values) => {
    const link = v.linkKind && v.linkNumber?.trim() ? { kind: v.linkKind, number: v.linkNumber.trim() } : undefined;
    const done = await act('create-ticket', {
      title: v.title.trim(), description: v.description?.trim() || undefined, category: v.category, priority: v.priority,
      ...(link ? { link } : { warehouseId, customerId }), ...(v.assigneeId ? { assigneeId: v.assigneeId } : {}),
    } as never, create);
    if (done) {
      form.resetFields();
      onCreated(done.data.ticketId);
    }
    return done;
  };
  return (
    <FormDrawer<Values> open={open} title={t('helpdesk.new')} onClose={onClose} form={form} onSubmit={submit} submitLabel={t('helpdesk.create')}
      initialValues={{ category: 'other', priority: 'Normal', ...(link ? { linkKind: link.kind, linkNumber: link.number } : {}) }} width={560}>
      {!scoped && !link && <Alert type="info" showIcon message={t('helpdesk.chooseScope')} style={{ marginBottom: 16 }} />}
      <Form.Item name="title" label={t('helpdesk.fields.title')} rules={[r.required('title')]}>
        <Input maxLength={200} autoComplete="off" data-testid="ticket-title" />
      </Form.Item>
      <Form.Item name="description" label={t('helpdesk.fields.description')}>
        <Input.TextArea maxLength={5000} autoSize={{ minRows: 3, maxRows: 8 }} data-testid="ticket-description" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="category" label={t('helpdesk.fields.category')}>
            <Select {...selectProps} options={TICKET_CATEGORIES.map((c) => ({ value: c, label: t(`helpdesk.category.${c}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="priority" label={t('helpdesk.fields.priority')}>
            <Select {...selectProps} options={TICKET_PRIORITIES.map((p) => ({ value: p, label: t(`helpdesk.priority.${p}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="linkKind" label={t('helpdesk.fields.linkKind')}>
            <Select {...selectProps} allowClear options={TICKET_LINK_KINDS.map((k) => ({ value: k, label: t(`helpdesk.link.${k}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="linkNumber" label={t('helpdesk.fields.linkId')}>
            <Input maxLength={32} disabled={!linkKind} autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      {staff && (
        <Form.Item name="assigneeId" label={t('helpdesk.fields.assignee')}>
          <Select {...selectProps} allowClear options={(assignees.data ?? []).map((u) => ({ value: u.userId, label: u.name }))} />
        </Form.Item>
      )}
    </FormDrawer>
  );
}
