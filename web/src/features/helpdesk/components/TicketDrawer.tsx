import { Button, Descriptions, Drawer, Form, Grid, Input, List, Select, Skeleton, Space, Tag, Timeline, Typography, Upload } from 'antd';
import { PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import { STATUS_MACHINES, TICKET_PRIORITIES, type TicketDetail, type TicketStatus } from '@bolx/contracts';
import { Link } from 'react-router';
import { StatusTag } from '../../../components/StatusTag';
import { ticketLinkPath } from '../../../components/linked-tickets/LinkedTickets';
import { selectProps } from '../../../components/form/select-props';
import { useDownload } from '../../../components/download/use-download';
import { runMutation } from '../../../lib/api/mutation-toast';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { staffWrite } from '../../../lib/access';
import { allowedActions } from '../../../lib/status-actions';
import { useMayAccess } from '../../../lib/use-access';
import {
  useAddAttachmentMutation, useAddCommentMutation, useGetAssigneesQuery, useGetTicketQuery, useSetTicketStatusMutation, useUpdateTicketMutation,
} from '../helpdesk-api';
import { DueTime } from './DueTime';
import { useKeyedAction } from '../../../lib/action-key';

type Action = keyof typeof STATUS_MACHINES.TICKET.actions;
/** A client account may close its ticket or reopen a resolved one (the server refuses the rest). */
const CLIENT_ACTIONS: readonly Action[] = ['close', 'reopen'];

/** One ticket: what it is about, its SLA, the conversation, its files and history; it follows the hub while open. */
export function TicketDrawer({ ticketId, onClose }: { ticketId: number | null; onClose: () => void }) {
  const screens = Grid.useBreakpoint();
  const { data, isLoading } = useGetTicketQuery(ticketId ?? 0, { skip: !ticketId });
  return (
    <Drawer open={!!ticketId} onClose={onClose} width={screens.md ? 720 : '100%'} destroyOnHidden
      title={data ? <Space wrap>{data.ticketNumber}<StatusTag kind="TICKET" status={data.status} /></Space> : null}>
      {isLoading || !data ? <Skeleton active /> : <TicketView ticket={data} />}
    </Drawer>
  );
}

function TicketView({ ticket }: { ticket: TicketDetail }) {
  const t = useT();
  const may = useMayAccess();
  const staff = may(staffWrite('HelpDesk'));
  const canWrite = may({ module: { key: 'HelpDesk', permission: 'write' } });
  const [setStatus, moving] = useSetTicketStatusMutation();
  const [update] = useUpdateTicketMutation();
  const act = useKeyedAction();
  const assignees = useGetAssigneesQuery({ warehouseId: ticket.warehouseId, customerId: ticket.customerId }, { skip: !staff });
  const actions = [...allowedActions('TICKET', ticket.status)].filter((a) => staff || CLIENT_ACTIONS.includes(a));
  const move = (action: Action) => act(action, { ticketId: ticket.ticketId, status: STATUS_MACHINES.TICKET.actions[action] as TicketStatus }, setStatus);

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="ticket-view" data-status={ticket.status}>
      <div>
        <Typography.Title level={4} style={{ marginTop: 0 }}>{ticket.title}</Typography.Title>
        {ticket.description && <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{ticket.description}</Typography.Paragraph>}
      </div>
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 2, lg: 2, xl: 2, xxl: 2 }} bordered items={[
        { key: 'c', label: t('helpdesk.fields.customer'), children: ticket.customerName },
        { key: 'l', label: t('helpdesk.fields.link'), children: ticket.link ? <Link to={ticketLinkPath(ticket.link)}>{t(`helpdesk.link.${ticket.link.kind}`)} {ticket.link.number}</Link> : '—' },
        { key: 'cat', label: t('helpdesk.fields.category'), children: t(`helpdesk.category.${ticket.category}`) },
        {
          key: 'p', label: t('helpdesk.fields.priority'),
          children: staff && canWrite
            ? <Select {...selectProps} size="small" style={{ minWidth: 120 }} value={ticket.priority} aria-label={t('helpdesk.fields.priority')}
              onChange={(priority) => act('priority', { ticketId: ticket.ticketId, priority }, update)}
              options={TICKET_PRIORITIES.map((p) => ({ value: p, label: t(`helpdesk.priority.${p}`) }))} />
            : t(`helpdesk.priority.${ticket.priority}`),
        },
        {
          key: 'a', label: t('helpdesk.fields.assignee'),
          children: staff && canWrite
            ? <Select {...selectProps} size="small" style={{ minWidth: 180 }} allowClear placeholder={t('helpdesk.unassigned')} value={ticket.assigneeId ?? undefined}
              aria-label={t('helpdesk.fields.assignee')}
              onChange={(assigneeId) => act('assign', { ticketId: ticket.ticketId, assigneeId: assigneeId ?? null }, update)}
              options={(assignees.data ?? []).map((u) => ({ value: u.userId, label: u.name }))} />
            : ticket.assigneeName ?? t('helpdesk.unassigned'),
        },
        { key: 'd', label: t('helpdesk.fields.due'), children: <DueTime ticket={ticket} /> },
      ]} />
      {canWrite && actions.length > 0 && (
        <Space wrap>
          {actions.map((a) => (
            <Button key={a} loading={moving.isLoading} type={a === 'resolve' ? 'primary' : 'default'} onClick={() => move(a)} data-testid={`ticket-${a}`}>
              {t(`helpdesk.action.${a}`)}
            </Button>
          ))}
        </Space>
      )}
      <Comments ticket={ticket} canWrite={canWrite} />
      <Attachments ticket={ticket} canWrite={canWrite} />
      {ticket.history.length > 0 && (
        <div>
          <Typography.Title level={5}>{t('helpdesk.history')}</Typography.Title>
          <Timeline items={ticket.history.map((h, i) => ({
            key: i, children: <>{t(`helpdesk.status.${h.from}`)} → {t(`helpdesk.status.${h.to}`)} · {h.username ?? '—'} · {new Date(h.at).toLocaleString()}{h.reason ? ` · ${h.reason}` : ''}</>,
          }))} />
        </div>
      )}
    </Space>
  );
}

function Comments({ ticket, canWrite }: { ticket: TicketDetail; canWrite: boolean }) {
  const t = useT();
  const [form] = Form.useForm<{ body: string }>();
  const [comment, sending] = useAddCommentMutation();
  const act = useKeyedAction();
  const submit = async ({ body }: { body: string }) => {
    if (await act('comment', { ticketId: ticket.ticketId, body: body.trim() }, comment)) form.resetFields();
  };
  return (
    <div>
      <Typography.Title level={5}>{t('helpdesk.fields.comments')}</Typography.Title>
      <List size="small" locale={{ emptyText: t('helpdesk.noComments') }} dataSource={ticket.commentList} data-testid="ticket-comments" renderItem={(c) => (
        <List.Item>
          <List.Item.Meta
            title={<Space wrap size={4}><Typography.Text strong>{c.author ?? '—'}</Typography.Text>{c.staff && <Tag color="blue">{t('helpdesk.staff')}</Tag>}<Typography.Text type="secondary">{new Date(c.createdAt).toLocaleString()}</Typography.Text></Space>}
            description={<Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{c.body}</Typography.Paragraph>} />
        </List.Item>
      )} />
      {canWrite && ticket.status !== 'Closed' && (
        <Form form={form} layout="vertical" onFinish={submit} style={{ marginTop: 12 }}>
          <Form.Item name="body" rules={[rules(t).required('comment')]}>
            <Input.TextArea maxLength={5000} autoSize={{ minRows: 2, maxRows: 6 }} placeholder={t('helpdesk.commentPlaceholder')} data-testid="ticket-comment" />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={sending.isLoading} data-testid="ticket-comment-send">{t('helpdesk.comment')}</Button>
        </Form>
      )}
    </div>
  );
}

function Attachments({ ticket, canWrite }: { ticket: TicketDetail; canWrite: boolean }) {
  const t = useT();
  const [attach, attaching] = useAddAttachmentMutation();
  const [download] = useDownload();
  if (!canWrite && ticket.attachments.length === 0) return null;
  return (
    <div>
      <Typography.Title level={5}>{t('helpdesk.fields.attachments')}</Typography.Title>
      <List size="small" dataSource={ticket.attachments} locale={{ emptyText: '—' }} renderItem={(a) => (
        <List.Item>
          <Typography.Link onClick={() => download({ url: 'ServiceManagement/HelpDesk/GetAttachment', params: { attachmentId: a.attachmentId } }, a.fileName)}>
            <PaperClipOutlined /> {a.fileName}
          </Typography.Link>
          <Typography.Text type="secondary">{a.uploadedBy ?? '—'} · {new Date(a.createdAt).toLocaleString()}</Typography.Text>
        </List.Item>
      )} />
      {canWrite && ticket.status !== 'Closed' && (
        <Upload showUploadList={false} accept=".pdf,.png,.jpg,.jpeg,.xlsx,.csv,.docx"
          beforeUpload={(file) => { void runMutation(attach({ ticketId: ticket.ticketId, file })); return false; }}>
          <Button icon={<PaperClipOutlined />} loading={attaching.isLoading} style={{ marginTop: 8 }}>{t('helpdesk.attach')}</Button>
        </Upload>
      )}
    </div>
  );
}
