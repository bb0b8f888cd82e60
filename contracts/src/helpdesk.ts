import { z } from 'zod';
import { TICKET_STATUSES } from './status.js';
import { listRequest, listResponse } from './common.js';
import { field, INT_MAX } from './fields.js';
import { MSG } from './messages.js';

// ----- issue 18: the help desk (/HelpDesk, Service Management) -----

export { TICKET_STATUSES } from './status.js';
export type { TicketStatus } from './status.js';
/** A ticket still being worked: its SLA clock runs (except while Waiting on Client) and it can be overdue. */
export const TICKET_OPEN_STATUSES = ['Open', 'In Progress', 'Waiting on Client'] as const;

export const TICKET_PRIORITIES = ['Low', 'Normal', 'High', 'Urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
/** The SLA: hours from opening to resolution per priority (time Waiting on Client does not count). */
export const TICKET_SLA_HOURS: Record<TicketPriority, number> = { Urgent: 4, High: 8, Normal: 24, Low: 72 };

export const TICKET_CATEGORIES = ['order', 'inbound', 'inventory', 'shipping', 'returns', 'billing', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_CATEGORY_LABELS: Record<TicketCategory, string> = {
  order: 'Orders', inbound: 'Receiving', inventory: 'Inventory', shipping: 'Shipping', returns: 'Returns', billing: 'Billing', other: 'Other',
};

/**
 * The documents a ticket may be about; each shows its tickets on its own view. A parcel shipment and a freight
 * (LTL) shipment are two documents of their own: their numbers and tables differ.
 */
export const TICKET_LINK_KINDS = ['order', 'receiving-order', 'shipment', 'freight-shipment', 'rma', 'invoice'] as const;
export type TicketLinkKind = (typeof TICKET_LINK_KINDS)[number];
export const TICKET_LINK_LABELS: Record<TicketLinkKind, string> = {
  order: 'Order', 'receiving-order': 'Receiving order', shipment: 'Shipment', 'freight-shipment': 'Freight shipment', rma: 'RMA', invoice: 'Invoice',
};

/** Spec section 5: the help desk form's texts. */
export const MSG_TICKET = { title: MSG.title, comment: MSG.comment } as const;

export const TICKET_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const TICKET_ATTACHMENTS_MAX = 10;

const id = field.id();
const scopeId = field.int(0, INT_MAX).optional();
const optionalText = (max: number) => field.text(max).trim().optional();

/** The document a ticket is about: by id (from the document's own view) or by the number people know it by. */
export const ticketLinkInput = z.object({ kind: z.enum(TICKET_LINK_KINDS), id: id.optional(), number: field.text(32).trim().min(1).optional() })
  .refine((l) => l.id !== undefined || l.number !== undefined, { message: 'Enter the document number', path: ['number'] });
export const createTicketInput = z.object({
  /** Where the ticket belongs; taken from the linked document when there is one. */
  warehouseId: field.id({ error: 'Please select a warehouse' }).optional(),
  customerId: field.id({ error: 'Please select a client' }).optional(),
  title: field.text(200, MSG_TICKET.title).trim().min(1, MSG_TICKET.title),
  description: optionalText(5000),
  category: z.enum(TICKET_CATEGORIES).optional().default('other'),
  priority: z.enum(TICKET_PRIORITIES).optional().default('Normal'),
  /** Staff only: who works it. */
  assigneeId: field.id().optional(),
  link: ticketLinkInput.optional(),
});
export type CreateTicketInput = z.infer<typeof createTicketInput>;

/** Staff: what the ticket is and who works it. */
export const updateTicketInput = z.object({
  ticketId: id,
  category: z.enum(TICKET_CATEGORIES).optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  /** null: nobody. */
  assigneeId: field.id().nullable().optional(),
});
export const ticketStatusInput = z.object({ ticketId: id, status: z.enum(TICKET_STATUSES), reason: optionalText(500) });
export const ticketCommentInput = z.object({ ticketId: id, body: field.text(5000, MSG_TICKET.comment).trim().min(1, MSG_TICKET.comment) });
export const ticketIdQuery = z.object({ ticketId: field.idParam() });
export const ticketAttachmentFields = z.object({ ticketId: field.idParam() });
export const attachmentIdQuery = z.object({ attachmentId: field.idParam() });
export const linkedTicketsQuery = z.object({ kind: z.enum(TICKET_LINK_KINDS), id: field.idParam() });
export const ticketAssigneesQuery = z.object({ warehouseId: field.idParam(), customerId: field.idParam() });

export const ticketLink = z.object({ kind: z.enum(TICKET_LINK_KINDS), id: z.number().int(), number: z.string() });
export const ticketSummary = z.object({
  uniqueid: z.number().int(), ticketId: z.number().int(), ticketNumber: z.string(), title: z.string(),
  status: z.enum(TICKET_STATUSES), priority: z.enum(TICKET_PRIORITIES), category: z.enum(TICKET_CATEGORIES),
  warehouseId: z.number().int(), customerId: z.number().int(), customerName: z.string(),
  assigneeId: z.number().int().nullable(), assigneeName: z.string().nullable(), createdBy: z.string().nullable(),
  /** When the SLA wants it resolved (moved on by the time spent Waiting on Client). */
  dueAt: z.string(), overdue: z.boolean(), link: ticketLink.nullable(), comments: z.number().int(),
  createdAt: z.string(), updatedAt: z.string(),
});
export type TicketSummary = z.infer<typeof ticketSummary>;
export const ticketComment = z.object({ commentId: z.number().int(), body: z.string(), author: z.string().nullable(), staff: z.boolean(), createdAt: z.string() });
export const ticketAttachment = z.object({ attachmentId: z.number().int(), fileName: z.string(), uploadedBy: z.string().nullable(), createdAt: z.string() });
export const ticketHistoryEntry = z.object({ from: z.string(), to: z.string(), at: z.string(), username: z.string().nullable(), reason: z.string().nullable() });
export const ticketDetail = ticketSummary.extend({
  description: z.string().nullable(),
  commentList: z.array(ticketComment),
  attachments: z.array(ticketAttachment),
  history: z.array(ticketHistoryEntry),
});
export type TicketDetail = z.infer<typeof ticketDetail>;
export const ticketAssignee = z.object({ userId: z.number().int(), name: z.string() });

export const ticketFilters = z.object({
  warehouseId: scopeId,
  customerId: scopeId,
  status: z.enum(TICKET_STATUSES).optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  /** Only the tickets past their due time and still open. */
  overdue: z.boolean().optional(),
  /** Only the caller's (staff: assigned to them). */
  mine: z.boolean().optional(),
});
export const ticketListRequest = listRequest(ticketFilters);
export const ticketListResponse = listResponse(ticketSummary);
