import { Link, useNavigate } from 'react-router';
import { Button, List, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { TicketLinkKind, TicketSummary } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { useT } from '../../lib/i18n/use-t';
import { useMayAccess } from '../../lib/use-access';
import { StatusTag } from '../StatusTag';

/** The help desk's tickets about one document, for the document's own view (the other side of a ticket's link). */
const linkedTicketsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Ticket'] }).injectEndpoints({
  endpoints: (build) => ({
    getLinkedTickets: build.query<TicketSummary[], { kind: TicketLinkKind; id: number }>({
      query: (params) => ({ url: 'ServiceManagement/HelpDesk/GetLinkedTickets', params }), providesTags: ['Ticket'],
    }),
  }),
});

/** The screen that shows a linked document (a ticket's "About" opens it there). */
export function ticketLinkPath(link: { kind: TicketLinkKind; id: number }): string {
  switch (link.kind) {
    case 'order': return `/OrderDashboard?orderId=${link.id}`;
    case 'receiving-order': return `/InBound?roid=${link.id}`;
    case 'shipment': return `/ShippingDashboard?shipmentId=${link.id}`;
    case 'freight-shipment': return `/FreightShipment?shipmentId=${link.id}`;
    case 'rma': return `/Returns?rmaId=${link.id}`;
    case 'invoice': return `/Billing?invoiceId=${link.id}`;
  }
}

/** /HelpDesk with a new ticket about the document open (the help desk reads `new` and `number`). */
export const newTicketPath = (kind: TicketLinkKind, number: string) => `/HelpDesk?${new URLSearchParams({ new: kind, number })}`;

/**
 * "Tickets (n)" with each ticket's number, title and status, linking to it on /HelpDesk, and "Open a ticket about
 * this" for whoever may open tickets; nothing without the help desk module.
 */
export function LinkedTickets({ kind, id, number }: {
  kind: TicketLinkKind; id: number;
  /** The number people know the document by (a ticket names it so); a draft invoice has none yet, nor a ticket about it. */
  number: string | null;
}) {
  const t = useT();
  const navigate = useNavigate();
  const may = useMayAccess();
  const mayRead = may({ module: { key: 'HelpDesk', permission: 'read' } });
  const mayOpen = may({ module: { key: 'HelpDesk', permission: 'write' } });
  const { data } = linkedTicketsApi.useGetLinkedTicketsQuery({ kind, id }, { skip: !mayRead });
  if (!mayRead || !data) return null;
  return (
    <div data-testid="linked-tickets">
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>{t('linkedTickets.count', { count: data.length })}</Typography.Title>
        {mayOpen && number && (
          <Button size="small" icon={<PlusOutlined />} onClick={() => navigate(newTicketPath(kind, number))} data-testid="open-ticket-about">
            {t('linkedTickets.open')}
          </Button>
        )}
      </Space>
      {data.length > 0 && (
        <List size="small" dataSource={data} renderItem={(ticket) => (
          <List.Item>
            <Space wrap>
              <Link to={`/HelpDesk?ticket=${ticket.ticketId}`}>{ticket.ticketNumber}</Link>
              <Typography.Text>{ticket.title}</Typography.Text>
              <StatusTag kind="TICKET" status={ticket.status} />
            </Space>
          </List.Item>
        )} />
      )}
    </div>
  );
}
