import {
  ASSISTANT_QUERY_LABELS, ASSISTANT_QUERY_TYPES, ASSISTANT_ASK_TIME_RANGES, ERROR_CODES, ORDER_TYPES, ORDER_STATUSES,
  type AnalysisData, type AskAnswer, type ChatStep, type AskRequest, type AssistantQuery, type AssistantQueryType, type ChartData,
  type OrderAnalysisAnswer, type OrderAnalysisRequest, type OrderTypeCountsAnswer,
} from '@bolx/contracts';
import { AppError } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { daysOf } from '../reports/report-range.js';
import { assistantRange } from './assistant-range.js';
import { assistantRepository as repo, type AnalysisWhere, type DayCount } from './assistant.repository.js';
import { parseQuestion } from './question-parser.js';

type Query = Omit<OrderAnalysisRequest, 'chart_type'>;
interface Target { warehouse: { id: number; name: string; timezone: string }; customer: { id: number; name: string } }

/** Same name, whatever the case and spacing: what a user types or a chip sends. */
const same = (a: string, b: string) => a.trim().toLowerCase().replace(/\s+/g, ' ') === b.trim().toLowerCase().replace(/\s+/g, ' ');
/** An unknown or out-of-scope name: the same 404 either way, so a name's existence elsewhere is not given away. */
const unknownName = (field: 'warehouse_name' | 'client_name', message: string) => new AppError(404, ERROR_CODES.NOT_FOUND, message, { [field]: message });

/**
 * The order-analytics assistant (spec sections 2 and 7): the chat's warehouses and clients, and its figures from the
 * real orders and receiving orders, always held to the caller's scope (a client account sees its own alone).
 */
export class AssistantService {
  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'dialect'>) {}

  async warehouses(p: Principal): Promise<{ warehouses: string[] }> {
    return { warehouses: (await repo.warehouses(this.deps.db, p.scope)).map((w) => w.name) };
  }

  async clients(p: Principal, warehouseName: string): Promise<{ clients: { name: string }[] }> {
    const warehouse = await this.warehouse(p, warehouseName);
    const clients = await repo.clients(this.deps.db, p.scope, warehouse.id);
    return { clients: clients.map((c) => ({ name: c.name })) };
  }

  async analysis(p: Principal, q: Query): Promise<OrderAnalysisAnswer> {
    const target = await this.target(p, q.warehouse_name, q.client_name);
    return { result: await this.run(p, target, q.query_type, q.time_range) };
  }

  /** The chart of a query: a bar per business day for each order type (receiving orders: one series). */
  async typeCounts(p: Principal, q: Query): Promise<OrderTypeCountsAnswer> {
    const target = await this.target(p, q.warehouse_name, q.client_name);
    const { w } = this.where(p, target, q.time_range);
    const counts = await this.counts(w, q.query_type);
    const days = daysOf(w.from, w.to);
    const isRo = q.query_type.startsWith('RO ');
    const types = isRo ? [null] : ORDER_TYPES.filter((t) => counts.some((c) => c.order_type === t));
    const series = (types.length ? types : [ORDER_TYPES[1]]).map((type) => ({
      name: type ?? 'Receiving Orders',
      data: days.map((day) => sum(counts.filter((c) => c.day === day && (type === null || c.order_type === type)))),
    }));
    const chart: ChartData = { type: 'bar', xAxis: { name: 'Date', data: days }, yAxis: { name: ASSISTANT_QUERY_LABELS[chartQuery(q.query_type)] }, series };
    return { response_code: 200, response_message: 'OK', data: chart };
  }

  /**
   * A question in the user's own words, answered with the same queries as the guided flow; what is missing comes
   * from the chat's current choices, or from the scope when there is one choice only. Anything not understood is
   * said, with the choice the chips should offer next.
   */
  async ask(p: Principal, body: AskRequest): Promise<AskAnswer> {
    const [warehouses, clients] = await Promise.all([repo.warehouses(this.deps.db, p.scope), repo.clients(this.deps.db, p.scope)]);
    const clientNames = [...new Set(clients.map((c) => c.name))];
    const parsed = parseQuestion(body.question, { warehouses: warehouses.map((w) => w.name), clients: clientNames });
    if (parsed.unknown.length) {
      return notUnderstood(`I did not understand "${parsed.unknown.join(' ')}". I know your warehouses and clients, the queries ${ASSISTANT_QUERY_TYPES.map((t) => ASSISTANT_QUERY_LABELS[t]).join(', ')}, and the periods ${ASSISTANT_ASK_TIME_RANGES.join(', ')}.`,
        parsed.queryType ? (parsed.timeRange ? 'client' : 'time') : 'query', {});
    }
    const context = (name: string | undefined, list: string[]) => (name ? list.find((n) => same(n, name)) : undefined);
    const clientName = parsed.client ?? context(body.client_name, clientNames) ?? (clientNames.length === 1 ? clientNames[0] : undefined);
    const servesClient = (warehouseId: number) => !clientName || clients.some((c) => c.warehouse_id === warehouseId && same(c.name, clientName));
    const candidates = warehouses.filter((w) => servesClient(w.id));
    const warehouse = parsed.warehouse ? warehouses.find((w) => w.name === parsed.warehouse)
      : candidates.find((w) => body.warehouse_name && same(w.name, body.warehouse_name)) ?? (candidates.length === 1 ? candidates[0] : undefined);
    const found = { warehouse_name: warehouse?.name, client_name: clientName, query_type: parsed.queryType, time_range: parsed.timeRange };
    if (!warehouse) return notUnderstood(`Which warehouse${clientName ? ` of ${clientName}` : ''}? Pick one below.`, 'warehouse', found);
    if (!clientName) return notUnderstood(`Which client in ${warehouse.name}? Pick one below.`, 'client', found);
    const customer = clients.find((c) => c.warehouse_id === warehouse.id && same(c.name, clientName));
    if (!customer) return notUnderstood(`${clientName} is not served from ${warehouse.name}. Pick a client below.`, 'client', { ...found, client_name: undefined });
    if (!parsed.queryType) return notUnderstood('What would you like to know about the orders? Pick a query below.', 'query', found);
    if (!parsed.timeRange) return notUnderstood('For which period? Pick one below.', 'time', found);
    const result = await this.run(p, { warehouse, customer }, parsed.queryType, parsed.timeRange);
    return { understood: true, query: result.query, result };
  }

  private async run(p: Principal, target: Target, type: AssistantQueryType, range: Query['time_range']): Promise<OrderAnalysisAnswer['result']> {
    const { w, query } = this.where(p, target, range, type);
    const row = (label: string, n: number): [string, string, string, number] => [target.warehouse.name, target.customer.name, label, n];
    let data: AnalysisData;
    if (type === 'All Orders') {
      const byStatus = new Map((await repo.ordersByStatus(this.deps.db, this.deps.dialect, w)).map((r) => [r.status, Number(r.n)]));
      // Every status in its lifecycle order, those with orders only.
      data = Object.fromEntries(ORDER_STATUSES.filter((s) => byStatus.get(s)).map((s, i) => [String(i), row(s, byStatus.get(s)!)]));
    } else {
      const counts = await this.counts(w, type);
      if (type === 'Orders Trend') {
        data = Object.fromEntries(daysOf(w.from, w.to).map((day, i) => [String(i), row(day, sum(counts.filter((c) => c.day === day)))]));
      } else {
        data = [target.warehouse.name, target.customer.name, sum(counts)];
      }
    }
    return { data, total: totalOf(data), query };
  }

  private counts(w: AnalysisWhere, type: AssistantQueryType): Promise<DayCount[]> {
    const { db, dialect } = this.deps;
    switch (type) {
      case 'Orders Processed': return repo.ordersReaching(db, dialect, w, 'Released');
      case 'Orders Shipped': return repo.ordersReaching(db, dialect, w, 'Shipped');
      case 'RO Received': return repo.receivingOrders(db, dialect, w, 'received_at');
      case 'RO Finalized': return repo.receivingOrders(db, dialect, w, 'finalized_at');
      default: return repo.ordersReceived(db, dialect, w);
    }
  }

  private where(p: Principal, t: Target, range: Query['time_range'], type: AssistantQueryType = 'Order Received') {
    const { from, to } = assistantRange(range, t.warehouse.timezone);
    const w: AnalysisWhere = { scope: p.scope, warehouseId: t.warehouse.id, customerId: t.customer.id, from, to };
    const query: AssistantQuery = {
      warehouse_name: t.warehouse.name, client_name: t.customer.name, query_type: type, label: ASSISTANT_QUERY_LABELS[type],
      time_range: range, from_date: from, to_date: to, timezone: t.warehouse.timezone,
    };
    return { w, query };
  }

  private async warehouse(p: Principal, name: string) {
    const warehouse = (await repo.warehouses(this.deps.db, p.scope)).find((w) => same(w.name, name));
    if (!warehouse) throw unknownName('warehouse_name', `No warehouse named "${name}" among yours`);
    return warehouse;
  }

  private async target(p: Principal, warehouseName: string, clientName: string): Promise<Target> {
    const warehouse = await this.warehouse(p, warehouseName);
    const customer = (await repo.clients(this.deps.db, p.scope, warehouse.id)).find((c) => same(c.name, clientName));
    if (!customer) throw unknownName('client_name', `No client named "${clientName}" among yours in ${warehouse.name}`);
    return { warehouse, customer };
  }
}

/** The sum of some day counts (PostgreSQL answers count(*) as text, hence Number). */
const sum = (counts: DayCount[]) => counts.reduce((s, c) => s + Number(c.n), 0);

/** The order queries chart the orders they count; a trend or All Orders charts the orders received. */
const chartQuery = (type: AssistantQueryType): AssistantQueryType => (type === 'Orders Trend' || type === 'All Orders' ? 'Order Received' : type);

/** Spec section 3: the total is the sum of the counts (the third element of one row, the fourth of each of many). */
export function totalOf(data: AnalysisData): number {
  return Array.isArray(data) ? data[2] : Object.values(data).reduce((s, r) => s + r[3], 0);
}

type Found = Extract<AskAnswer, { understood: false }>['found'];
/** What the chat says and asks next; `found` keeps what was understood (without empty entries). */
const notUnderstood = (message: string, ask: Exclude<ChatStep, 'result'>, found: { [K in keyof Found]?: Found[K] | undefined }): AskAnswer =>
  ({ understood: false, message, ask, found: Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined)) as Found });
