import { Tag, Typography } from 'antd';
import type { TicketSummary } from '@bolx/contracts';
import { useT } from '../../../lib/i18n/use-t';

/** A ticket's SLA due time, with an Overdue tag when it is past it and still open. */
export function DueTime({ ticket }: { ticket: Pick<TicketSummary, 'dueAt' | 'overdue' | 'status'> }) {
  const t = useT();
  const done = ticket.status === 'Resolved' || ticket.status === 'Closed';
  return (
    <span data-testid="ticket-due">
      <Typography.Text type={done ? 'secondary' : undefined}>{new Date(ticket.dueAt).toLocaleString()}</Typography.Text>
      {ticket.overdue && <Tag color="red" style={{ marginInlineStart: 6 }}>{t('helpdesk.overdue')}</Tag>}
    </span>
  );
}
