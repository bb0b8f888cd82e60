import { z } from 'zod';
import {
  STAFF_ROLES, TICKET_ATTACHMENT_MAX_BYTES, apiErrorSchema, attachmentIdQuery, createTicketInput, linkedTicketsQuery, mutationResult, ticketAssignee,
  ticketAssigneesQuery, ticketAttachmentFields, ticketCommentInput, ticketDetail, ticketIdQuery, ticketListRequest, ticketListResponse, ticketStatusInput,
  ticketSummary, updateTicketInput,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';
import { parseFields, receiveUpload, sendStoredFile } from '../../platform/files.js';

const tags = ['Help desk'];
const BASE = '/ServiceManagement/HelpDesk';
/** Tickets: staff of the ticket's warehouse and client, and the client account (its own customer's). */
const read: RoutePolicy = { access: 'authenticated', module: { key: 'HelpDesk', permission: 'read' }, scope: 'tenant' };
const write: RoutePolicy = { access: 'authenticated', module: { key: 'HelpDesk', permission: 'write' }, scope: 'tenant' };
const staffRead: RoutePolicy = { ...read, roles: STAFF_ROLES };
const staffWrite: RoutePolicy = { ...write, roles: STAFF_ROLES };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const helpDeskRoutes: RouteModule = (api, { helpDesk }) => {
  api.post(`${BASE}/GetTickets`, {
    schema: { tags, body: ticketListRequest, response: { 200: ticketListResponse, ...authErrors }, summary: 'Tickets: filters (warehouse, client, status, priority, overdue, mine), search by number or title, sort, paging' },
    config: { policy: read },
  }, (req) => helpDesk.list(principalOf(req), req.body));

  api.get(`${BASE}/GetTicket`, {
    schema: { tags, querystring: ticketIdQuery, response: { 200: ticketDetail, ...authErrors }, summary: 'One ticket: comments, files, status history' },
    config: { policy: read },
  }, (req) => helpDesk.get(principalOf(req), req.query.ticketId));

  api.get(`${BASE}/GetLinkedTickets`, {
    schema: { tags, querystring: linkedTicketsQuery, response: { 200: z.array(ticketSummary), ...authErrors }, summary: 'The tickets about one order, receiving order, shipment, RMA or invoice' },
    config: { policy: read },
  }, (req) => helpDesk.linked(principalOf(req), req.query.kind, req.query.id));

  api.get(`${BASE}/GetAssignees`, {
    schema: { tags, querystring: ticketAssigneesQuery, response: { 200: z.array(ticketAssignee), ...authErrors }, summary: 'Staff who may work a ticket of this warehouse and client' },
    config: { policy: staffRead },
  }, (req) => helpDesk.assignees(principalOf(req), req.query));

  api.post(`${BASE}/CreateTicket`, {
    schema: {
      tags, body: createTicketInput, response: { 200: mutationResult(ticketSummary), ...errors },
      summary: 'Open a ticket (of the linked document’s warehouse and client, which the caller must see); due by the priority’s SLA; mails the requester and assignee',
    },
    config: { policy: write },
  }, (req) => helpDesk.create(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UpdateTicket`, {
    schema: { tags, body: updateTicketInput, response: { 200: mutationResult(ticketSummary), ...errors }, summary: 'Staff: category, priority (moves the due time), assignee' },
    config: { policy: staffWrite },
  }, (req) => helpDesk.update(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/SetTicketStatus`, {
    schema: { tags, body: ticketStatusInput, response: { 200: mutationResult(ticketSummary), ...errors }, summary: 'Move a ticket (Waiting on Client stops its SLA clock); a client account may close or reopen its own' },
    config: { policy: write },
  }, (req) => helpDesk.setStatus(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/AddComment`, {
    schema: { tags, body: ticketCommentInput, response: { 200: mutationResult(ticketDetail), ...errors }, summary: 'Comment on a ticket; a client’s answer puts a ticket Waiting on Client back In Progress' },
    config: { policy: write },
  }, (req) => helpDesk.comment(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/AddAttachment`, {
    schema: {
      tags, consumes: ['multipart/form-data'], response: { 200: mutationResult(ticketDetail), ...errors },
      summary: `Attach a file (multipart: ticketId, file: PDF, PNG, JPEG, XLSX, CSV or DOCX by content, at most ${TICKET_ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB)`,
    },
    config: { policy: write, uploadFields: ticketAttachmentFields },
  }, async (req) => {
    const upload = await receiveUpload(req, { maxBytes: TICKET_ATTACHMENT_MAX_BYTES });
    const { ticketId } = parseFields(ticketAttachmentFields, upload.fields);
    return helpDesk.attach(principalOf(req), ticketId, upload.file, actorOf(req));
  });

  api.get(`${BASE}/GetAttachment`, {
    schema: { tags, querystring: attachmentIdQuery, response: { 200: z.any().describe('the file'), ...authErrors }, summary: 'A ticket’s file' },
    config: { policy: read },
  }, async (req, reply) => sendStoredFile(reply, await helpDesk.attachmentFile(principalOf(req), req.query.attachmentId)));
};
