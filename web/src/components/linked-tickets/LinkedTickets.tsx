import { Link, useNavigate } from 'react-router';
import { Button, Card, List, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { TicketLinkKind, TicketSummary } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { useT } from '../../lib/i18n/use-t';
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
 * this"; nothing for a caller the help desk refuses. The server decides: the help desk is the Service Management
 * app's module, and the account the web knows holds only the current app's modules (in Warehouse Management a
 * client's or staff member's HelpDesk is not among them), so asking it would hide the block from all but
 * administrators. Whether the caller may open a ticket is the help desk form's to say (and the server's).
 */
export function LinkedTickets({ kind, id, number, card = false }: {
  kind: TicketLinkKind; id: number;
  /** The number people know the document by (a ticket names it so); a draft invoice has none yet, nor a ticket about it. */
  number: string | null;
  /** In a card of its own (a view made of cards), which is left out with the block. */
  card?: boolean;
}) {
  const t = useT();
  const navigate = useNavigate();
  const { data } = linkedTicketsApi.useGetLinkedTicketsQuery({ kind, id });
  if (!data) return null;
  const block = (
    <div data-testid="linked-tickets">
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>{t('linkedTickets.count', { count: data.length })}</Typography.Title>
        {number && (
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
  return card ? <Card size="small">{block}</Card> : block;
}
