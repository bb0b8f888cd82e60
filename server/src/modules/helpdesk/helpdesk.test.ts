import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { TICKET_SLA_HOURS } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, multipartBody, recordEvents, type TestApp } from '../../../test/helpers.js';

// Issue 18: the help desk — tickets scoped to their client, SLA due times and overdue, links, mail, live events.
let t: TestApp;
type Caller = ReturnType<typeof as>;
let admin: Caller, agent: Caller, otherAgent: Caller, client: Caller, otherClient: Caller;
let agentId: number, clientId: number, wh: number, otherWh: number, cust: number, otherCust: number;
let seq = 0;

const H = '/ServiceManagement/HelpDesk';
const db = () => t.database.db;
const HOUR = 3_600_000;
const count = async (table: 'ticket' | 'ticket_comment' | 'ticket_attachment' | 'mail_outbox') =>
  Number((await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
const mailsTo = async (email: string) => db().selectFrom('mail_outbox').select(['subject', 'body']).where('to_address', '=', email).orderBy('id').execute();
const emailOf = async (id: number) => (await db().selectFrom('app_user').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;

async function order(customerId: number, warehouseId = wh) {
  const at = new Date().toISOString();
  const tag = `HD-${++seq}-${Math.random().toString(36).slice(2, 6)}`;
  const row = await db().insertInto('sales_order').values({
    so_number: tag, warehouse_id: warehouseId, customer_id: customerId, order_type: 'Sales', reference_number: tag, order_date: '2030-01-01',
    requested_ship_date: null, priority: 5, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null, ship_to_state: null,
    ship_to_zip: null, ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: null, notes: null,
    status: 'New', source: 'screen', created_by: null, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, number: tag };
}
async function opened(by: Caller, body: Record<string, unknown>) {
  const res = await by.post(`${H}/CreateTicket`, { warehouseId: wh, customerId: cust, title: 'Where is my order?', ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { ticketId: number; ticketNumber: string; status: string; dueAt: string; createdAt: string; overdue: boolean };
}
const move = (by: Caller, ticketId: number, status: string) => by.post(`${H}/SetTicketStatus`, { ticketId, status });

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  otherWh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  otherCust = await makeCustomer(t.database, [wh, otherWh]);
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const a = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust, otherCust], modules: { HelpDesk: 'write' } });
  agentId = a.id;
  agent = as(t.app, await login(t.app, a.username, a.password));
  const oa = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [otherWh], customerIds: [otherCust], modules: { HelpDesk: 'write' } });
  otherAgent = as(t.app, await login(t.app, oa.username, oa.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { HelpDesk: 'write' } });
  clientId = c.id;
  client = as(t.app, await login(t.app, c.username, c.password));
  const oc = await makeUser(t.database, { role: 'Client', customerId: otherCust, modules: { HelpDesk: 'write' } });
  otherClient = as(t.app, await login(t.app, oc.username, oc.password));
});
afterAll(async () => { await t?.close(); });

describe('tickets', () => {
  it('a client opens a ticket on its own order; it is numbered, due by its SLA, linked both ways, and mailed', async () => {
    const o = await order(cust);
    const events = await recordEvents(t.app);
    const mailsBefore = await count('mail_outbox');
    const ticket = await opened(client, { title: 'Order short one unit', priority: 'High', category: 'order', link: { kind: 'order', id: o.id } });
    expect(ticket.ticketNumber).toMatch(/^TKT-\d{6}$/);
    expect(ticket.status).toBe('Open');
    expect(Date.parse(ticket.dueAt) - Date.parse(ticket.createdAt)).toBe(TICKET_SLA_HOURS.High * HOUR);
    const linked = await agent.get(`${H}/GetLinkedTickets?kind=order&id=${o.id}`);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().map((x: { ticketId: number }) => x.ticketId)).toEqual([ticket.ticketId]);
    expect((await otherClient.get(`${H}/GetLinkedTickets?kind=order&id=${o.id}`)).json()).toEqual([]);
    const detail = (await client.get(`${H}/GetTicket?ticketId=${ticket.ticketId}`)).json();
    expect(detail.link).toEqual({ kind: 'order', id: o.id, number: o.number });
    // By the number people know it by, too.
    const byNumber = await opened(client, { title: 'Same order', link: { kind: 'order', number: o.number } });
    expect((await client.get(`${H}/GetTicket?ticketId=${byNumber.ticketId}`)).json().link.id).toBe(o.id);
    // The requester opened it: no mail to themselves; nobody else is on it yet.
    expect(await count('mail_outbox')).toBe(mailsBefore);
    // Staff opening one for an assignee: the assignee hears of it.
    const assigned = await opened(admin, { title: 'Check the dock', assigneeId: agentId });
    expect((await mailsTo(await emailOf(agentId))).map((m) => m.subject)).toContain(`[${assigned.ticketNumber}] New ticket: Check the dock`);
    const heard = await events.until(1);
    expect(heard.some((e) => e.target === 'ReceiveTicketData' && (e.payload as { subEvent: string }).subEvent === 'AddTicket')).toBe(true);
    const audit = await db().selectFrom('audit_log').select('action').where('entity', '=', 'ticket').where('entity_id', '=', String(ticket.ticketId) as never).execute();
    expect(audit.map((r) => r.action)).toContain('create');
  });

  it('a ticket on another client\'s order is refused and writes nothing; so is one for another client or warehouse', async () => {
    const theirs = await order(otherCust);
    const before = await count('ticket');
    const res = await client.post(`${H}/CreateTicket`, { warehouseId: wh, customerId: cust, title: 'Not mine', link: { kind: 'order', id: theirs.id } });
    expect(res.statusCode).toBe(403);
    const forOther = await client.post(`${H}/CreateTicket`, { warehouseId: wh, customerId: otherCust, title: 'Not mine' });
    expect(forOther.statusCode).toBe(403);
    // Staff who see both clients still cannot file one client's document under the other.
    const mixed = await agent.post(`${H}/CreateTicket`, { warehouseId: wh, customerId: cust, title: 'Mixed', link: { kind: 'order', id: theirs.id } });
    expect(mixed.statusCode).toBe(422);
    const missing = await client.post(`${H}/CreateTicket`, { warehouseId: wh, title: 'No such', link: { kind: 'rma', id: 999999 } });
    expect(missing.statusCode).toBe(404);
    const theirsByNumber = await client.post(`${H}/CreateTicket`, { title: 'Not mine', link: { kind: 'order', number: theirs.number } });
    expect(theirsByNumber.statusCode).toBe(403);
    expect(await count('ticket')).toBe(before);
  });

  it('refuses bad input with the spec\'s texts and writes nothing', async () => {
    const before = await count('ticket');
    const noTitle = await client.post(`${H}/CreateTicket`, { warehouseId: wh, customerId: cust, title: '  ' });
    expect(noTitle.statusCode).toBe(400);
    expect(JSON.stringify(noTitle.json())).toContain('Please enter Title!');
    const nul = await client.post(`${H}/CreateTicket`, { warehouseId: wh, customerId: cust, title: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    const ticket = await opened(client, {});
    const noComment = await client.post(`${H}/AddComment`, { ticketId: ticket.ticketId, body: '' });
    expect(noComment.statusCode).toBe(400);
    expect(JSON.stringify(noComment.json())).toContain('Comment is required');
    const assign = await client.post(`${H}/CreateTicket`, { warehouseId: wh, customerId: cust, title: 'x', assigneeId: agentId });
    expect(assign.statusCode).toBe(403);
    expect(await count('ticket')).toBe(before + 1);
  });

  it('each account sees only its own client\'s tickets, and staff only their warehouses\' and clients\'', async () => {
    const mine = await opened(client, { title: 'Mine' });
    const theirs = await opened(otherClient, { customerId: otherCust, title: 'Theirs' });
    const elsewhere = await opened(otherAgent, { warehouseId: otherWh, customerId: otherCust, title: 'Other warehouse' });
    const ids = async (by: Caller) => ((await by.post(`${H}/GetTickets`, { pageSize: 500 })).json().items as { ticketId: number }[]).map((x) => x.ticketId);
    expect(await ids(client)).toContain(mine.ticketId);
    expect(await ids(client)).not.toContain(theirs.ticketId);
    expect(await ids(otherClient)).not.toContain(mine.ticketId);
    expect(await ids(agent)).toEqual(expect.arrayContaining([mine.ticketId, theirs.ticketId]));
    expect(await ids(agent)).not.toContain(elsewhere.ticketId);
    expect((await client.get(`${H}/GetTicket?ticketId=${theirs.ticketId}`)).statusCode).toBe(404);
    expect((await client.post(`${H}/AddComment`, { ticketId: theirs.ticketId, body: 'peek' })).statusCode).toBe(404);
    expect((await agent.get(`${H}/GetTicket?ticketId=${elsewhere.ticketId}`)).statusCode).toBe(404);
  });

  it('staff answer and move a ticket; the requester and the assignee are mailed, never the author of the change', async () => {
    const ticket = await opened(client, { title: 'Damaged pallet' });
    const clientMail = await emailOf(clientId);
    const agentMail = await emailOf(agentId);
    const assign = await agent.post(`${H}/UpdateTicket`, { ticketId: ticket.ticketId, assigneeId: agentId });
    expect(assign.statusCode, assign.body).toBe(200);
    expect((await move(agent, ticket.ticketId, 'In Progress')).statusCode).toBe(200);
    const answer = await agent.post(`${H}/AddComment`, { ticketId: ticket.ticketId, body: 'We are checking the dock camera.' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data.commentList.at(-1)).toMatchObject({ body: 'We are checking the dock camera.', staff: true });
    const toClient = (await mailsTo(clientMail)).filter((m) => m.subject.startsWith(`[${ticket.ticketNumber}]`));
    expect(toClient.map((m) => m.subject)).toEqual([`[${ticket.ticketNumber}] In Progress: Damaged pallet`, `[${ticket.ticketNumber}] New comment: Damaged pallet`]);
    expect(toClient[1].body).toContain('We are checking the dock camera.');
    // The agent made these changes: no mail to them about them.
    expect((await mailsTo(agentMail)).filter((m) => m.subject.includes(ticket.ticketNumber))).toEqual([]);
    const reply = await client.post(`${H}/AddComment`, { ticketId: ticket.ticketId, body: 'Thanks' });
    expect(reply.statusCode).toBe(200);
    expect((await mailsTo(agentMail)).map((m) => m.subject)).toContain(`[${ticket.ticketNumber}] New comment: Damaged pallet`);
  });

  it('a client may close its ticket or reopen a resolved one, nothing else; illegal moves answer 409', async () => {
    const ticket = await opened(client, {});
    expect((await move(client, ticket.ticketId, 'In Progress')).statusCode).toBe(403);
    expect((await move(client, ticket.ticketId, 'Resolved')).statusCode).toBe(403);
    expect((await move(agent, ticket.ticketId, 'Resolved')).statusCode).toBe(200);
    expect((await move(client, ticket.ticketId, 'In Progress')).statusCode).toBe(200);
    expect((await move(client, ticket.ticketId, 'Closed')).statusCode).toBe(200);
    const again = await move(agent, ticket.ticketId, 'In Progress');
    expect(again.statusCode).toBe(409);
    expect((await client.post(`${H}/AddComment`, { ticketId: ticket.ticketId, body: 'late' })).statusCode).toBe(422);
    const history = (await client.get(`${H}/GetTicket?ticketId=${ticket.ticketId}`)).json().history.map((h: { to: string }) => h.to);
    expect(history).toEqual(['Resolved', 'In Progress', 'Closed']);
  });
});

describe('the SLA', () => {
  it('shows a ticket past its due time as overdue, and the overdue filter finds it', async () => {
    const late = await opened(client, { title: 'Late one', priority: 'Urgent' });
    const fresh = await opened(client, { title: 'Fresh one', priority: 'Low' });
    await db().updateTable('ticket').set({ due_at: new Date(Date.now() - HOUR).toISOString() }).where('id', '=', late.ticketId).execute();
    const list = (await agent.post(`${H}/GetTickets`, { filters: { overdue: true }, pageSize: 500 })).json().items as { ticketId: number; overdue: boolean }[];
    expect(list.map((x) => x.ticketId)).toContain(late.ticketId);
    expect(list.map((x) => x.ticketId)).not.toContain(fresh.ticketId);
    expect(list.every((x) => x.overdue)).toBe(true);
    // Resolved is no longer overdue.
    expect((await move(agent, late.ticketId, 'Resolved')).statusCode).toBe(200);
    expect((await agent.get(`${H}/GetTicket?ticketId=${late.ticketId}`)).json().overdue).toBe(false);
  });

  it('stops the clock while Waiting on Client: the wait is added to the due time, and the client\'s answer restarts it', async () => {
    const ticket = await opened(client, { priority: 'Normal' });
    expect((await move(agent, ticket.ticketId, 'Waiting on Client')).statusCode).toBe(200);
    // Two hours waiting, as if it began two hours ago.
    await db().updateTable('ticket').set({ waiting_since: new Date(Date.now() - 2 * HOUR).toISOString() }).where('id', '=', ticket.ticketId).execute();
    const answered = await client.post(`${H}/AddComment`, { ticketId: ticket.ticketId, body: 'Here is the photo' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().data.status).toBe('In Progress');
    const moved = Date.parse(answered.json().data.dueAt) - Date.parse(ticket.dueAt);
    expect(moved).toBeGreaterThanOrEqual(2 * HOUR);
    expect(moved).toBeLessThan(2 * HOUR + 60_000);
  });

  it('a new priority moves the due time by the SLA\'s difference', async () => {
    const ticket = await opened(client, { priority: 'Low' });
    const res = await agent.post(`${H}/UpdateTicket`, { ticketId: ticket.ticketId, priority: 'Urgent' });
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.parse(res.json().data.dueAt) - Date.parse(ticket.dueAt)).toBe((TICKET_SLA_HOURS.Urgent - TICKET_SLA_HOURS.Low) * HOUR);
    expect((await client.post(`${H}/UpdateTicket`, { ticketId: ticket.ticketId, priority: 'Low' })).statusCode).toBe(403);
  });
});

describe('attachments and assignees', () => {
  it('a file is attached by its bytes and read back only within scope', async () => {
    const ticket = await opened(client, {});
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
    const send = (by: Caller, body: ReturnType<typeof multipartBody>) => by.post(`${H}/AddAttachment`, body.payload, body.headers);
    const up = await send(client, multipartBody({ ticketId: ticket.ticketId }, { name: 'proof.pdf', bytes: pdf, type: 'application/pdf' }));
    expect(up.statusCode, up.body).toBe(200);
    const attachmentId = up.json().data.attachments[0].attachmentId as number;
    const file = await agent.get(`${H}/GetAttachment?attachmentId=${attachmentId}`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);
    expect((await otherClient.get(`${H}/GetAttachment?attachmentId=${attachmentId}`)).statusCode).toBe(404);
    const before = await count('ticket_attachment');
    const fake = await send(client, multipartBody({ ticketId: ticket.ticketId }, { name: 'virus.pdf', bytes: Buffer.from('MZ\u0090\u0000binary') }));
    expect(fake.statusCode).toBe(400);
    expect(await count('ticket_attachment')).toBe(before);
  });

  it('assignees are staff of the ticket\'s warehouse and client; anyone else is refused', async () => {
    const list = await agent.get(`${H}/GetAssignees?warehouseId=${wh}&customerId=${cust}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((u: { userId: number }) => u.userId)).toContain(agentId);
    expect((await client.get(`${H}/GetAssignees?warehouseId=${wh}&customerId=${cust}`)).statusCode).toBe(403);
    const ticket = await opened(admin, {});
    const bad = await admin.post(`${H}/UpdateTicket`, { ticketId: ticket.ticketId, assigneeId: clientId });
    expect(bad.statusCode).toBe(422);
  });
});
