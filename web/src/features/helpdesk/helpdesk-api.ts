import type { CreateTicketInput, TicketDetail, TicketPriority, TicketStatus, TicketSummary } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { reloadOn } from '../../lib/hub/live-list';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

type Answer<T> = { message: string; data: T };
type Keyed<A> = A & { idempotencyKey: string };
const keyed = <A extends { idempotencyKey: string }>(url: string, { idempotencyKey, ...body }: A) => ({
  url, method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey },
});

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Ticket'] });

/** The help desk's calls; the list and the open ticket follow the hub's ticket events, so both sides see answers live. */
export const helpDeskApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTickets: build.query<ListPage<TicketSummary>, ListRequest>({
      query: (body) => ({ url: 'ServiceManagement/HelpDesk/GetTickets', method: 'POST', body }), providesTags: ['Ticket'], onCacheEntryAdded: reloadOn('ReceiveTicketData'),
    }),
    getTicket: build.query<TicketDetail, number>({
      query: (ticketId) => ({ url: 'ServiceManagement/HelpDesk/GetTicket', params: { ticketId } }), providesTags: ['Ticket'],
      onCacheEntryAdded: reloadOn<'ReceiveTicketData', number>('ReceiveTicketData', (e, ticketId) => e.payload.ticketId === ticketId),
    }),
    getAssignees: build.query<{ userId: number; name: string }[], { warehouseId: number; customerId: number }>({
      query: (params) => ({ url: 'ServiceManagement/HelpDesk/GetAssignees', params }),
    }),
    createTicket: build.mutation<Answer<TicketSummary>, Keyed<Partial<CreateTicketInput> & { title: string }>>({
      query: (a) => keyed('ServiceManagement/HelpDesk/CreateTicket', a), invalidatesTags: ['Ticket'],
    }),
    updateTicket: build.mutation<Answer<TicketSummary>, Keyed<{ ticketId: number; priority?: TicketPriority; category?: string; assigneeId?: number | null }>>({
      query: (a) => keyed('ServiceManagement/HelpDesk/UpdateTicket', a), invalidatesTags: ['Ticket'],
    }),
    setTicketStatus: build.mutation<Answer<TicketSummary>, Keyed<{ ticketId: number; status: TicketStatus }>>({
      query: (a) => keyed('ServiceManagement/HelpDesk/SetTicketStatus', a), invalidatesTags: ['Ticket'],
    }),
    addComment: build.mutation<Answer<TicketDetail>, Keyed<{ ticketId: number; body: string }>>({
      query: (a) => keyed('ServiceManagement/HelpDesk/AddComment', a), invalidatesTags: ['Ticket'],
    }),
    addAttachment: build.mutation<Answer<TicketDetail>, { ticketId: number; file: File }>({
      query: ({ ticketId, file }) => {
        const form = new FormData();
        form.append('ticketId', String(ticketId));
        form.append('file', file);
        return { url: 'ServiceManagement/HelpDesk/AddAttachment', method: 'POST', body: form };
      },
      invalidatesTags: ['Ticket'],
    }),
  }),
});

export const {
  useGetTicketsQuery, useGetTicketQuery, useGetAssigneesQuery, useCreateTicketMutation, useUpdateTicketMutation,
  useSetTicketStatusMutation, useAddCommentMutation, useAddAttachmentMutation,
} = helpDeskApi;

