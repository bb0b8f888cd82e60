import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_LINK_KINDS, type FilterLabel, type TicketLinkKind, type TicketSummary } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { StatusTag } from '../../../components/StatusTag';
import { useT } from '../../../lib/i18n/use-t';
import { useMayAccess } from '../../../lib/use-access';
import { useGetTicketsQuery } from '../helpdesk-api';
import { NewTicketDrawer } from '../components/NewTicketDrawer';
import { TicketDrawer } from '../components/TicketDrawer';
import { DueTime } from '../components/DueTime';
import { ticketLinkPath } from '../../../components/linked-tickets/LinkedTickets';

/** /HelpDesk: the tickets of the caller's warehouses and clients (a client account: its own), live; a ticket opens in a drawer. */
export default function HelpDeskPage() {
  const t = useT();
  const may = useMayAccess();
  const canOpen = may({ module: { key: 'HelpDesk', permission: 'write' } });
  const [params, setParams] = useSearchParams();
  // ?new=KIND&number=N: a document's "Open a ticket about this" opens a new ticket about it here.
  const aboutKind = params.get('new') as TicketLinkKind | null;
  const about = aboutKind && TICKET_LINK_KINDS.includes(aboutKind) && canOpen ? { kind: aboutKind, number: params.get('number') ?? '' } : undefined;
  const [creating, setCreating] = useState(false);
  // The drawer closes after its ticket is opened: closing then must not take the new ticket's address away again.
  const justCreated = useRef(false);
  // ?ticket=ID: the link in a ticket's e-mail opens it here.
  const openId = Number(params.get('ticket')) || null;
  const open = (ticketId: number | null) => setParams(ticketId ? { ticket: String(ticketId) } : {}, { replace: true });

  const filters: FilterLabel[] = [
    { key: 'status', label: t('helpdesk.fields.status'), type: 'select', options: TICKET_STATUSES.map((s) => ({ value: s, label: t(`helpdesk.status.${s}`) })) },
    { key: 'priority', label: t('helpdesk.fields.priority'), type: 'select', options: TICKET_PRIORITIES.map((p) => ({ value: p, label: t(`helpdesk.priority.${p}`) })) },
    { key: 'overdue', label: t('helpdesk.fields.overdue'), type: 'boolean' },
    { key: 'mine', label: t('helpdesk.fields.mine'), type: 'boolean' },
  ];
  const columns: ColumnsType<TicketSummary> = [
    {
      key: 'ticketNumber', dataIndex: 'ticketNumber', title: t('helpdesk.fields.ticketNumber'), sorter: true,
      render: (v: string, r) => <Typography.Link onClick={() => open(r.ticketId)} data-testid={`ticket-${r.ticketId}`}>{v}</Typography.Link>,
    },
    { key: 'title', dataIndex: 'title', title: t('helpdesk.fields.title'), sorter: true, ellipsis: true },
    { key: 'status', dataIndex: 'status', title: t('helpdesk.fields.status'), sorter: true, render: (v: string) => <StatusTag kind="TICKET" status={v} /> },
    { key: 'priority', dataIndex: 'priority', title: t('helpdesk.fields.priority'), sorter: true, render: (v: string) => <Tag color={v === 'Urgent' ? 'red' : v === 'High' ? 'orange' : 'default'}>{t(`helpdesk.priority.${v}`)}</Tag> },
    { key: 'customerName', dataIndex: 'customerName', title: t('helpdesk.fields.customer'), sorter: true },
    { key: 'link', title: t('helpdesk.fields.link'), render: (_: unknown, r) => (r.link ? <Link to={ticketLinkPath(r.link)} data-testid={`ticket-about-${r.ticketId}`}>{t(`helpdesk.link.${r.link.kind}`)} {r.link.number}</Link> : '—') },
    { key: 'assigneeName', dataIndex: 'assigneeName', title: t('helpdesk.fields.assignee'), render: (v: string | null) => v ?? t('helpdesk.unassigned') },
    { key: 'dueAt', dataIndex: 'dueAt', title: t('helpdesk.fields.due'), sorter: true, render: (_: unknown, r) => <DueTime ticket={r} /> },
    { key: 'comments', dataIndex: 'comments', title: t('helpdesk.fields.comments'), align: 'right' },
    { key: 'updatedAt', dataIndex: 'updatedAt', title: t('helpdesk.fields.updated'), sorter: true, render: (v: string) => new Date(v).toLocaleString() },
  ];
  return (
    <div className="bolx-page" data-testid="helpdesk-page">
      <DataTablePage<TicketSummary>
        title={t('helpdesk.title')}
        subtitle={t('helpdesk.subtitle')}
        rowKey="uniqueid"
        columns={columns}
        useList={useGetTicketsQuery}
        filters={filters}
        searchPlaceholder={t('helpdesk.search')}
        scopeFilters={warehouseAndCustomerScope}
        onAdd={canOpen ? () => setCreating(true) : undefined}
        addLabel={t('helpdesk.new')}
      />
      <NewTicketDrawer open={creating || !!about} link={about}
        onClose={() => { setCreating(false); if (about && !justCreated.current) open(null); justCreated.current = false; }}
        onCreated={(id) => { justCreated.current = true; setCreating(false); open(id); }} />
      <TicketDrawer ticketId={openId} onClose={() => open(null)} />
    </div>
  );
}
