import { ERROR_CODES } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import { businessDay } from '../../platform/business-day.js';
import { AppError, notFound, unprocessable } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { batchPrintRepository as repo } from './batch-print.repository.js';
import { pickListsPdf, type PickListData, type PickListStop } from './pick-list-pdf.js';
import { packingSlipsPdf, type Address, type PackingSlipData } from './packing-slip-pdf.js';

const n = (v: unknown) => Number(v);
const unique = (ids: number[]) => [...new Set(ids)];
/** Rows by a key (a job's tasks, an order's lines), each list in the rows' order. */
function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
/** 404 naming the field of the first id that names nothing. */
const unknownId = (what: string, field: string, id: number) => new AppError(404, ERROR_CODES.NOT_FOUND, `${what} ${id} not found`, { [field]: `${what} ${id} not found` });

type JobRow = Awaited<ReturnType<typeof repo.jobs>>[number];
type OrderRow = Awaited<ReturnType<typeof repo.orders>>[number];

export interface PackingSlipSelection { orderIds?: number[]; jobIds?: number[]; waveId?: number }

/**
 * /BatchPrint: pick lists of pick jobs and packing slips of orders, as PDFs. Every job and order printed is in the
 * caller's scope (its warehouse, and the customer of each order it holds) or nothing is printed.
 */
export class BatchPrintService {
  private readonly db: Db;

  constructor(deps: Pick<ServiceDeps, 'db'>) {
    this.db = deps.db;
  }

  /** Pick lists of the jobs, in the order asked. Unknown job: 404; one outside the caller's scope: 403. */
  async pickLists(principal: Principal, input: { jobIds: number[] }): Promise<Buffer> {
    const jobIds = unique(input.jobIds);
    await this.checkJobs(principal, jobIds);
    const [jobs, totes, tasks] = await Promise.all([repo.jobs(this.db, jobIds), repo.totes(this.db, jobIds), repo.tasks(this.db, jobIds)]);
    const byId = new Map(jobs.map((j) => [n(j.id), j]));
    const totesOf = groupBy(totes, (t) => n(t.job_id));
    const tasksOf = groupBy(tasks, (t) => n(t.job_id));
    const printedAt = new Date();
    return pickListsPdf(jobIds.map((id) => toPickList(byId.get(id)!, totesOf.get(id) ?? [], tasksOf.get(id) ?? [], printedAt)));
  }

  /** Packing slips of the orders named, the orders of the jobs, and the orders of the wave (each once). */
  async packingSlips(principal: Principal, input: PackingSlipSelection): Promise<Buffer> {
    const orderIds: number[] = [];
    const owners: { warehouse_id: number; customer_id: number }[] = [];
    if (input.orderIds?.length) {
      const ids = unique(input.orderIds);
      const found = new Map((await repo.orderOwners(this.db, ids)).map((o) => [n(o.id), o]));
      for (const id of ids) if (!found.has(id)) throw unknownId('Order', `orderIds.${input.orderIds.indexOf(id)}`, id);
      orderIds.push(...ids);
      owners.push(...found.values());
    }
    if (input.jobIds?.length) {
      const ids = unique(input.jobIds);
      const jobOrders = await this.checkJobs(principal, ids);
      if (jobOrders.length === 0) throw unprocessable('These jobs hold no orders', { jobIds: 'These jobs hold no orders' });
      orderIds.push(...jobOrders.map((o) => n(o.order_id)));
      owners.push(...jobOrders);
    }
    if (input.waveId) {
      const wave = await repo.wave(this.db, input.waveId);
      if (!wave) throw unknownId('Wave', 'waveId', input.waveId);
      principal.scope.assert({ warehouseId: wave.warehouse_id });
      const waveOrders = await repo.waveOrders(this.db, input.waveId);
      if (waveOrders.length === 0) throw unprocessable(`Wave ${wave.wave_number} holds no orders`, { waveId: `Wave ${wave.wave_number} holds no orders` });
      orderIds.push(...waveOrders.map((o) => n(o.order_id)));
      owners.push(...waveOrders);
    }
    for (const o of owners) principal.scope.assert({ warehouseId: o.warehouse_id, customerId: o.customer_id });
    return this.renderSlips(unique(orderIds));
  }

  /**
   * One order's packing slip (the order drawer, the pack station, a client account for its own order). An order
   * the caller may not see answers 404, as GetOrder does: a client learns nothing of another customer's orders.
   */
  async packingSlip(principal: Principal, orderId: number): Promise<Buffer> {
    const [owner] = await repo.orderOwners(this.db, [orderId]);
    if (!owner || !principal.scope.admits({ warehouseId: owner.warehouse_id, customerId: owner.customer_id })) throw notFound('Order');
    return this.renderSlips([orderId]);
  }

  /** The jobs exist and are in scope, with every order they hold; answers those orders by job and slot. */
  private async checkJobs(principal: Principal, jobIds: number[]) {
    const owners = new Map((await repo.jobOwners(this.db, jobIds)).map((j) => [n(j.id), j]));
    jobIds.forEach((id, i) => { if (!owners.has(id)) throw unknownId('Pick job', `jobIds.${i}`, id); });
    for (const job of owners.values()) principal.scope.assert({ warehouseId: job.warehouse_id });
    const orders = await repo.jobOrders(this.db, jobIds);
    for (const o of orders) principal.scope.assert({ warehouseId: o.warehouse_id, customerId: o.customer_id });
    return orders;
  }

  private async renderSlips(orderIds: number[]): Promise<Buffer> {
    const [orders, lines, lots, cartons] = await Promise.all([
      repo.orders(this.db, orderIds), repo.lines(this.db, orderIds), repo.pickedLots(this.db, orderIds), repo.closedCartons(this.db, orderIds),
    ]);
    const [cartonLines, logos] = await Promise.all([
      repo.cartonLines(this.db, cartons.map((c) => n(c.id))), repo.customerLogos(this.db, unique(orders.map((o) => n(o.customer_id)))),
    ]);
    const byId = new Map(orders.map((o) => [n(o.id), o]));
    const linesOf = groupBy(lines, (l) => n(l.order_id));
    const lotsOf = groupBy(lots, (x) => n(x.order_line_id));
    const cartonsOf = groupBy(cartons, (c) => n(c.order_id));
    const contentsOf = groupBy(cartonLines, (cl) => n(cl.carton_id));
    const slips = orderIds.map((id): PackingSlipData => {
      const o = byId.get(id)!;
      return {
        ...orderHeader(o),
        customerLogo: logos.get(n(o.customer_id)) ?? null,
        lines: (linesOf.get(id) ?? []).map((l) => ({
          lineNo: n(l.line_no), skuCode: l.sku_code, description: l.description, ordered: n(l.quantity), picked: n(l.picked_qty), packed: n(l.packed_qty),
          shipped: n(l.shipped_qty),
          // The lot ordered, else the lots the units were picked from.
          lot: l.lot || (lotsOf.get(n(l.id)) ?? []).map((x) => x.lot).join(', '),
        })),
        cartons: (cartonsOf.get(id) ?? []).map((c) => ({
          cartonNumber: c.carton_number, cartonType: c.type_code, dimensions: `${n(c.length_cm)} × ${n(c.width_cm)} × ${n(c.height_cm)} cm`,
          weightKg: c.weight_kg == null ? null : n(c.weight_kg), trackingNumber: c.tracking_number,
          contents: (contentsOf.get(n(c.id)) ?? []).map((cl) => ({ skuCode: cl.sku_code, lot: cl.lot, quantity: n(cl.quantity) })),
        })),
      };
    });
    return packingSlipsPdf(slips);
  }
}

const present = (parts: (string | null | undefined)[]) => parts.filter((p): p is string => !!p && p.trim() !== '');
const joined = (...parts: (string | null | undefined)[]) => present(parts).join(', ');
/** "State Zip", as an address's city line ends. */
const spaced = (...parts: (string | null | undefined)[]) => present(parts).join(' ');

function orderHeader(o: OrderRow): Omit<PackingSlipData, 'customerLogo' | 'lines' | 'cartons'> {
  const shipFrom: Address = {
    name: o.warehouse_name,
    lines: [joined(o.wh_address1, o.wh_address2), joined(o.wh_city, spaced(o.wh_state, o.wh_zip)), o.wh_country ?? ''].filter(Boolean),
  };
  const shipTo: Address = {
    name: o.ship_to_name ?? '—',
    lines: [joined(o.ship_to_address1, o.ship_to_address2), joined(o.ship_to_city, spaced(o.ship_to_state, o.ship_to_zip)), o.ship_to_country ?? ''].filter(Boolean),
    phone: o.ship_to_phone,
  };
  const carrier = o.carrier_name ? (o.carrier_account && o.carrier_account !== o.carrier_name ? `${o.carrier_name} (${o.carrier_account})` : o.carrier_name) : o.carrier_account;
  return {
    soNumber: o.so_number, referenceNumber: o.reference_number, orderDate: o.order_date, status: o.status, customerName: o.customer_name,
    shipDate: o.ship_date ?? o.requested_ship_date, shipDateLabel: o.ship_date ? 'Ship date' : 'Requested ship date',
    shipFrom, shipTo, carrier: carrier ?? null, carrierService: o.carrier_service,
  };
}

function toPickList(job: JobRow, totes: Awaited<ReturnType<typeof repo.totes>>, tasks: Awaited<ReturnType<typeof repo.tasks>>, printedAt: Date): PickListData {
  const stops: PickListStop[] = [];
  for (const t of tasks) {
    let stop = stops.at(-1);
    if (!stop || stop.seq !== n(t.seq)) {
      stop = { seq: n(t.seq), locationCode: t.location_code, skuCode: t.sku_code, skuDescription: t.description, lot: t.lot, expiryDate: t.expiry_date, quantity: 0, tasks: [] };
      stops.push(stop);
    }
    stop.quantity += n(t.quantity);
    stop.tasks.push({ slot: n(t.slot), soNumber: t.so_number, toteCode: t.tote_code, quantity: n(t.quantity) });
  }
  const name = [job.first_name, job.last_name].filter(Boolean).join(' ');
  return {
    jobNumber: job.job_number, waveNumber: job.wave_number, strategy: job.strategy, zone: job.zone, status: job.status,
    pickerName: job.username == null ? null : name || job.username,
    warehouseName: job.warehouse_name, createdDate: businessDay(job.timezone, job.created_at), printedAt: localTime(job.timezone, printedAt),
    totes: totes.map((t) => ({ slot: n(t.slot), soNumber: t.so_number, customerName: t.customer_name, toteCode: t.tote_code })),
    stops,
  };
}

/** "YYYY-MM-DD HH:mm" in the warehouse's time zone. */
function localTime(timeZone: string, at: Date): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
