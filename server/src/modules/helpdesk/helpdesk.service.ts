import {
  STAFF_ROLES, TICKET_ATTACHMENTS_MAX, TICKET_LINK_LABELS, mayTransition, TICKET_ATTACHMENT_MAX_BYTES, TICKET_SLA_HOURS, type CreateTicketInput, type HubEventMap, type TicketCategory,
  type TicketDetail, type TicketLinkKind, type TicketPriority, type TicketStatus, type TicketSummary, type updateTicketInput,
} from '@bolx/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { Change, ChangeRecorder } from '../../platform/change-recorder.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../../platform/errors.js';
import { checkUpload, readStoredFile, storeFile } from '../../platform/files.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Mailer } from '../../platform/mail.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { helpDeskRepository as repo, type TicketFilterValues, type TicketRow } from './helpdesk.repository.js';

type SubEvent = HubEventMap['ReceiveTicketData']['subEvent'];
type UpdateInput = z.infer<typeof updateTicketInput>;
type ListFilters = Omit<TicketFilterValues, 'assigneeId' | 'createdBy'> & { mine?: boolean };

const HOUR_MS = 3_600_000;
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const isStaff = (p: Principal) => STAFF_ROLES.includes(p.role);
/** What a client account may do to its own ticket's status: close it, or reopen a resolved one that is not. */
const clientMay = (from: string, to: TicketStatus) => to === 'Closed' || (from === 'Resolved' && to === 'In Progress');

const toSummary = (r: TicketRow): TicketSummary => ({
  uniqueid: r.id, ticketId: r.id, ticketNumber: r.ticket_number, title: r.title, status: r.status as TicketStatus,
  priority: r.priority as TicketPriority, category: r.category as TicketCategory, warehouseId: r.warehouse_id, customerId: r.customer_id,
  customerName: r.customer_name, assigneeId: r.assignee_id, assigneeName: r.assignee_name, createdBy: r.created_by_name,
  dueAt: String(r.due_at), overdue: Number(r.overdue) === 1, comments: Number(r.comments),
  link: r.link_kind && r.link_id ? { kind: r.link_kind as TicketLinkKind, id: r.link_id, number: r.link_number ?? `#${r.link_id}` } : null,
  createdAt: String(r.created_at), updatedAt: String(r.updated_at),
});

/**
 * The help desk (issue 18). A ticket belongs to one warehouse and client — the linked document's when it is about
 * one, which the caller must be able to see — so the one scope helper keeps a client account to its own tickets
 * and staff to their warehouses and clients. Its SLA due time comes from its priority; the clock stands while the
 * ticket is Waiting on Client (the wait is added to the due time when it ends). Every change is audited, told to
 * the hub (ReceiveTicketData), and mailed through the outbox to the people on the ticket other than its author.
 */
export class HelpDeskService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly mailer: Mailer;
  private readonly statuses: StatusMachine;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'mailer'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.mailer = deps.mailer;
    this.statuses = new StatusMachine(deps);
  }

  async list(principal: Principal, req: ListRequest<ListFilters>) {
    const { mine, ...filters } = req.filters ?? {};
    const own = mine ? (isStaff(principal) ? { assigneeId: principal.userId } : { createdBy: principal.userId }) : {};
    const page = await repo.list(this.db, this.dialect, principal.scope, { ...req, filters: { ...filters, ...own } }, new Date().toISOString());
    return toListPage(page, toSummary);
  }

  async get(principal: Principal, ticketId: number): Promise<TicketDetail> {
    return this.detail(await this.scoped(principal, ticketId));
  }

  /** The tickets about one document the caller can see (the document's view shows them). */
  async linked(principal: Principal, kind: TicketLinkKind, id: number) {
    return (await repo.linked(this.db, principal.scope, kind, id, new Date().toISOString())).map(toSummary);
  }

  /** Staff who may work a ticket of this warehouse and client. */
  async assignees(principal: Principal, q: { warehouseId: number; customerId: number }) {
    principal.scope.assert(q);
    return (await repo.assignees(this.db, q.warehouseId, q.customerId)).map((u) => ({ userId: u.id, name: u.name }));
  }

  async create(principal: Principal, input: CreateTicketInput, actor: Actor) {
    const owner = await this.ownerOf(principal, input);
    if (input.assigneeId !== undefined) {
      if (!isStaff(principal)) throw forbidden('Only staff assign tickets');
      await this.assignable(owner, input.assigneeId);
    }
    const now = new Date().toISOString();
    const ticket = await inTransaction(this.db, async (uow) => {
      const { number } = await documentNumbers.next(uow, 'TKT');
      const id = await repo.insert(uow.tx, {
        ticket_number: number, warehouse_id: owner.warehouseId, customer_id: owner.customerId, title: input.title,
        description: input.description || null, category: input.category, priority: input.priority, assignee_id: input.assigneeId ?? null,
        link_kind: input.link?.kind ?? null, link_id: owner.linkId ?? null, due_at: shift(now, TICKET_SLA_HOURS[input.priority] * HOUR_MS),
        created_by: actor.userId, created_at: now,
      });
      const row = await this.row(uow, id);
      await this.recorder.record(uow, actor, this.change('create', 'AddTicket', row, { title: row.title, priority: row.priority, link: row.link_kind ? { kind: row.link_kind, id: row.link_id } : null }));
      await this.mail(uow, row, actor, [row.created_by, row.assignee_id], `[${row.ticket_number}] New ticket: ${row.title}`,
        `${row.ticket_number} was opened by ${actor.username ?? 'the system'} for ${row.customer_name}.\nPriority: ${row.priority}, due ${row.due_at}.\n\n${row.description ?? ''}`);
      return row;
    });
    return { message: `Ticket ${ticket.ticket_number} created`, data: toSummary(ticket) };
  }

  /** Staff change what a ticket is and who works it; a new priority moves the due time by the SLA's difference. */
  async update(principal: Principal, input: UpdateInput, actor: Actor) {
    if (!isStaff(principal)) throw forbidden('Only staff change a ticket\'s category, priority or assignee');
    const before = await this.scoped(principal, input.ticketId);
    if (input.assigneeId) await this.assignable({ warehouseId: before.warehouse_id, customerId: before.customer_id }, input.assigneeId);
    const now = new Date().toISOString();
    const priority = input.priority ?? (before.priority as TicketPriority);
    const slaChange = (TICKET_SLA_HOURS[priority] - TICKET_SLA_HOURS[before.priority as TicketPriority]) * HOUR_MS;
    const after = await inTransaction(this.db, async (uow) => {
      await repo.update(uow.tx, before.id, {
        category: input.category, priority: input.priority, assignee_id: input.assigneeId, due_at: slaChange ? shift(String(before.due_at), slaChange) : undefined, updated_at: now,
      });
      const row = await this.row(uow, before.id);
      await this.recorder.record(uow, actor, this.change('update', 'UpdateTicket', row, {
        before: { category: before.category, priority: before.priority, assigneeId: before.assignee_id }, category: row.category, assigneeId: row.assignee_id,
      }));
      if (input.assigneeId && input.assigneeId !== before.assignee_id) {
        await this.mail(uow, row, actor, [input.assigneeId], `[${row.ticket_number}] Assigned to you: ${row.title}`, `${actor.username ?? 'Someone'} assigned ${row.ticket_number} to you. Due ${row.due_at}.`);
      }
      return row;
    });
    return { message: `Ticket ${after.ticket_number} updated`, data: toSummary(after) };
  }

  /**
   * Moves a ticket (the status machine refuses what its table does not allow, 409). Into Waiting on Client the SLA
   * clock stops; out of it the wait is added to the due time. A client account may only close its ticket or reopen
   * a resolved one.
   */
  async setStatus(principal: Principal, input: { ticketId: number; status: TicketStatus; reason?: string }, actor: Actor) {
    const before = await this.scoped(principal, input.ticketId);
    if (!isStaff(principal) && !clientMay(before.status, input.status)) {
      throw forbidden('A client account may close its ticket or reopen a resolved one');
    }
    const after = await inTransaction(this.db, async (uow) => {
      const row = await this.move(uow, actor, before, input.status, input.reason ?? null);
      await this.mail(uow, row, actor, [row.created_by, row.assignee_id], `[${row.ticket_number}] ${row.status}: ${row.title}`,
        `${actor.username ?? 'The system'} moved ${row.ticket_number} from ${before.status} to ${row.status}.${input.reason ? `\n\n${input.reason}` : ''}`);
      return row;
    });
    return { message: `Ticket ${after.ticket_number} is ${after.status}`, data: toSummary(after) };
  }

  /** A comment; a client's answer to a ticket Waiting on Client puts it back In Progress (its clock runs again). */
  async comment(principal: Principal, input: { ticketId: number; body: string }, actor: Actor) {
    const ticket = await this.scoped(principal, input.ticketId);
    if (ticket.status === 'Closed') throw unprocessable(`Ticket ${ticket.ticket_number} is closed; open a new ticket instead`);
    const now = new Date().toISOString();
    const after = await inTransaction(this.db, async (uow) => {
      const commentId = await repo.addComment(uow.tx, { ticket_id: ticket.id, body: input.body, author_id: actor.userId, created_at: now });
      await repo.touch(uow.tx, ticket.id, now);
      let row = await this.row(uow, ticket.id);
      if (!isStaff(principal) && row.status === 'Waiting on Client') row = await this.move(uow, actor, row, 'In Progress', 'The client answered');
      await this.recorder.record(uow, actor, this.change('comment', 'AddComment', row, { commentId }));
      await this.mail(uow, row, actor, [row.created_by, row.assignee_id], `[${row.ticket_number}] New comment: ${row.title}`,
        `${actor.username ?? 'Someone'} wrote on ${row.ticket_number}:\n\n${input.body}`);
      return row;
    });
    return { message: 'Comment added', data: await this.detail(after) };
  }

  /** A file on a ticket (PDF, image, spreadsheet or document, by its bytes; at most 10 MB, 10 per ticket). */
  async attach(principal: Principal, ticketId: number, file: { fileName: string; bytes: Buffer } | null, actor: Actor) {
    if (!file) throw badRequest('Please choose a file', { file: 'Please choose a file' });
    const ticket = await this.scoped(principal, ticketId);
    if (ticket.status === 'Closed') throw unprocessable(`Ticket ${ticket.ticket_number} is closed; open a new ticket instead`);
    const checked = checkUpload(file, { allowed: ['pdf', 'png', 'jpeg', 'xlsx', 'csv', 'docx'], maxBytes: TICKET_ATTACHMENT_MAX_BYTES });
    if ((await repo.attachments(this.db, ticket.id)).length >= TICKET_ATTACHMENTS_MAX) throw unprocessable(`A ticket holds at most ${TICKET_ATTACHMENTS_MAX} files`, { file: 'Too many files' });
    const now = new Date().toISOString();
    const after = await inTransaction(this.db, async (uow) => {
      const stored = await storeFile(uow.tx, { fileName: file.fileName, mimeType: checked.mimeType, bytes: file.bytes, createdBy: actor.userId });
      const attachmentId = await repo.addAttachment(uow.tx, { ticket_id: ticket.id, file_id: stored.id, uploaded_by: actor.userId, created_at: now });
      await repo.touch(uow.tx, ticket.id, now);
      const row = await this.row(uow, ticket.id);
      await this.recorder.record(uow, actor, this.change('attach', 'AddAttachment', row, { attachmentId, fileName: stored.fileName }));
      return row;
    });
    return { message: `${file.fileName} attached`, data: await this.detail(after) };
  }

  async attachmentFile(principal: Principal, attachmentId: number) {
    const attachment = await repo.attachment(this.db, attachmentId);
    if (!attachment) throw notFound('File');
    await this.scoped(principal, attachment.ticket_id);
    const file = await readStoredFile(this.db, attachment.file_id);
    if (!file) throw notFound('File');
    return file;
  }

  // ----- parts -----

  /** Where a new ticket belongs: the linked document's warehouse and client (which the caller must see), else the fields. */
  private async ownerOf(principal: Principal, input: CreateTicketInput): Promise<{ warehouseId: number; customerId: number; linkId?: number }> {
    if (input.link) {
      const doc = await repo.document(this.db, input.link.kind, input.link);
      if (!doc) throw notFound(`${TICKET_LINK_LABELS[input.link.kind]} ${input.link.number ?? input.link.id}`);
      principal.scope.assert({ warehouseId: doc.warehouse_id, customerId: doc.customer_id });
      if (input.customerId && input.customerId !== doc.customer_id) throw unprocessable('The linked document is another client\'s', { 'link.id': 'Not this client\'s document' });
      if (input.warehouseId && input.warehouseId !== doc.warehouse_id) throw unprocessable('The linked document is another warehouse\'s', { 'link.id': 'Not this warehouse\'s document' });
      return { warehouseId: doc.warehouse_id, customerId: doc.customer_id, linkId: doc.id };
    }
    const customerId = input.customerId ?? principal.customerId ?? undefined;
    if (!input.warehouseId) throw badRequest('Please select a warehouse', { warehouseId: 'Please select a warehouse' });
    if (!customerId) throw badRequest('Please select a client', { customerId: 'Please select a client' });
    const owner = { warehouseId: input.warehouseId, customerId };
    principal.scope.assert(owner);
    if (!await repo.servedAt(this.db, owner.warehouseId, owner.customerId)) throw unprocessable('This client is not served at this warehouse', { customerId: 'Not served at this warehouse' });
    return owner;
  }

  private async assignable(owner: { warehouseId: number; customerId: number }, userId: number) {
    const staff = await repo.assignees(this.db, owner.warehouseId, owner.customerId);
    if (!staff.some((u) => u.id === userId)) throw unprocessable('The assignee must be staff of this warehouse and client', { assigneeId: 'Not staff of this warehouse and client' });
  }

  private async scoped(principal: Principal, ticketId: number) {
    const row = await repo.find(this.db, principal.scope, ticketId, new Date().toISOString());
    if (!row) throw notFound('Ticket');
    return row;
  }

  private async row(uow: UnitOfWork, id: number) {
    return (await repo.find(uow.tx, Scope.everything, id, new Date().toISOString()))!;
  }

  /** One status move from the status the ticket was read in (409 if it moved meanwhile), with the SLA clock's pause. */
  private async move(uow: UnitOfWork, actor: Actor, before: TicketRow, to: TicketStatus, reason: string | null) {
    if (!mayTransition('TICKET', before.status, to)) throw conflict(`Ticket ${before.ticket_number} is ${before.status}; it cannot become ${to}`);
    const now = new Date().toISOString();
    const set: Record<string, unknown> = { updated_at: now };
    if (to === 'Waiting on Client') set.waiting_since = now;
    else if (before.status === 'Waiting on Client' && before.waiting_since) {
      set.waiting_since = null;
      set.due_at = shift(String(before.due_at), Date.parse(now) - Date.parse(String(before.waiting_since)));
    }
    await this.statuses.transition(uow, actor, { kind: 'TICKET', id: before.id, to, from: [before.status as TicketStatus], reason, set });
    const row = await this.row(uow, before.id);
    await this.recorder.record(uow, actor, this.change('status', 'TicketStatus', row, { from: before.status, reason }));
    return row;
  }

  private async detail(row: TicketRow): Promise<TicketDetail> {
    const [comments, attachments, history] = await Promise.all([repo.comments(this.db, row.id), repo.attachments(this.db, row.id), repo.history(this.db, row.id)]);
    return {
      ...toSummary(row), description: row.description,
      commentList: comments.map((c) => ({ commentId: c.id, body: c.body, author: c.username, staff: c.role !== null && c.role !== 'Client', createdAt: String(c.created_at) })),
      attachments: attachments.map((a) => ({ attachmentId: a.id, fileName: a.file_name, uploadedBy: a.username, createdAt: String(a.created_at) })),
      history: history.map((h) => ({ from: h.from_status, to: h.to_status, at: String(h.at), username: h.username, reason: h.reason })),
    };
  }

  /** Mail to the people on the ticket (its requester, its assignee), never to the one who made the change. */
  private async mail(uow: UnitOfWork, row: TicketRow, actor: Actor, userIds: (number | null)[], subject: string, body: string) {
    const ids = [...new Set(userIds.filter((id): id is number => id !== null && id !== actor.userId))];
    for (const user of await repo.emails(uow.tx, ids)) {
      await this.mailer.enqueue(uow.tx, { to: user.email, subject, body: `${body}\n\nOpen it in the portal: /HelpDesk?ticket=${row.id}` }, uow.afterCommit);
    }
  }

  private change(action: string, subEvent: SubEvent, row: TicketRow, after: Record<string, unknown>): Change {
    return {
      audit: { action, entity: 'ticket', entityId: row.id, warehouseId: row.warehouse_id, customerId: row.customer_id, after: { ticketNumber: row.ticket_number, status: row.status, ...after } },
      events: { target: 'ReceiveTicketData', payload: { subEvent, payload: { ticketId: row.id, status: row.status } }, warehouseId: row.warehouse_id, customerId: row.customer_id },
    };
  }
}
