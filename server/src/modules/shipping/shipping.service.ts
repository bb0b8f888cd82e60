import { sql } from 'kysely';
import {
  rateTableDefinition, type RateQuote, type RateShopResult, type RateTableDefinition, type ShipmentDetail, type ShipmentSummary, type ShippingDashboard,
  type ManifestSummary, type ShipmentStatus, type ShipmentKind, type ShipmentTracking,
} from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { businessDay, type WarehouseTimeZones } from '../../platform/business-day.js';
import type { Change, ChangeRecorder } from '../../platform/change-recorder.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import type { DomainEvents } from '../../platform/domain-events.js';
import { conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { FloorEvent, FloorEvents } from '../../platform/floor-events.js';
import { nextSscc } from '../../platform/gs1.js';
import { listRows, toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import type { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { ShipConfirmService } from '../ship-confirm/ship-confirm.service.js';
import { CarrierError, adapterByCode, adapterFor, type ParcelPackage, type ServiceRate } from './carriers/index.js';
import { CarrierAccounts } from './carrier-accounts.js';
import { carrierLabelZpl, labelsPdf, ssccLabelZpl, type LabelData } from './labels.js';
import { manifestCsv, manifestPdf, type ManifestData } from './manifest-docs.js';
import { shippingRepository as repo } from './shipping.repository.js';

const n = (v: unknown) => Number(v);
const nOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const present = (parts: (string | null | undefined)[]) => parts.filter((p): p is string => !!p && p.trim() !== '');
const joined = (...parts: (string | null | undefined)[]) => present(parts).join(', ');
const spaced = (...parts: (string | null | undefined)[]) => present(parts).join(' ');

type OrderRow = NonNullable<Awaited<ReturnType<typeof repo.order>>>;
type CartonRow = Awaited<ReturnType<typeof repo.closedCartons>>[number];

export interface ShipmentFilterValues {
  warehouseId?: number; customerId?: number; carrierAccountId?: number; status?: ShipmentStatus; shipDay?: string; manifestId?: number;
  kind?: ShipmentKind; rmaId?: number;
}

/** The audit row and hub event of a new shipment (of any kind). */
export function shipmentCreated(row: { id: number; kind: string; status: string; warehouse_id: number; customer_id: number }, after: Record<string, unknown>): Change {
  return {
    audit: { action: 'create', entity: 'shipment', entityId: row.id, warehouseId: row.warehouse_id, customerId: row.customer_id, after: { kind: row.kind, ...after } },
    events: { target: 'ReceiveShipmentData', payload: { subEvent: 'AddShipment', payload: { shipmentId: row.id, kind: row.kind, status: row.status } }, warehouseId: row.warehouse_id, customerId: row.customer_id },
  };
}

/** "HH:MM" of a moment in a time zone. */
function clockIn(timeZone: string, at: Date): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.hour}:${parts.minute}`;
}
const dayPlus = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
/** The first business day (Monday–Friday) from `day`, it included. */
const businessFrom = (day: string) => { let d = day; while (isWeekend(d)) d = dayPlus(d, 1); return d; };
/** `count` business days after `day`. */
function addBusinessDays(day: string, count: number): string {
  let d = day;
  for (let i = 0; i < count; i++) d = businessFrom(dayPlus(d, 1));
  return d;
}

/**
 * Parcel shipping: rate shopping a packed order across every service of its customer's carrier accounts, labels per
 * carton (carrier label PDF/ZPL, SSCC/GS1-128 carton label), voiding them before ship, shipping through ship confirm,
 * and the end-of-day close per carrier account (a manifest, its shipments locked). A shipment follows its order:
 * when ship confirm ships the order (from here or on its own), the labelled shipment becomes Shipped in the same
 * transaction and its tracking numbers go onto the cartons.
 */
export class ShippingService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  private readonly statuses: StatusMachine;
  private readonly accounts: CarrierAccounts;

  constructor(deps: Pick<ServiceDeps, 'config' | 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly parts: { floorEvents: FloorEvents; shipConfirm: ShipConfirmService }) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
    this.statuses = new StatusMachine(deps);
    this.accounts = new CarrierAccounts(deps.config.tokenSecret);
  }

  // ---------- carrier accounts and rate tables ----------

  async rateTable(principal: Principal, carrierAccountId: number) {
    const account = await repo.account(this.db, principal.scope, carrierAccountId);
    if (!account) throw notFound('Carrier account');
    return {
      carrierAccountId: account.id, accountName: account.account_name, customerId: account.customer_id,
      definition: account.definition ? rateTableDefinition.parse(JSON.parse(account.definition)) : null, updatedAt: account.updated_at ?? null,
    };
  }

  /** Writes a carrier account's rate table (managers): from now on the account prices from it. */
  async saveRateTable(principal: Principal, input: { carrierAccountId: number; definition: RateTableDefinition }, actor: Actor) {
    const account = await repo.account(this.db, principal.scope, input.carrierAccountId);
    if (!account) throw notFound('Carrier account');
    const definition = JSON.stringify(input.definition);
    const now = new Date().toISOString();
    await inTransaction(this.db, async (uow) => {
      const updated = await uow.tx.updateTable('carrier_rate_table').set({ definition, updated_by: actor.userId, updated_at: now })
        .where('carrier_account_id', '=', account.id).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        await uow.tx.insertInto('carrier_rate_table').values({ carrier_account_id: account.id, customer_id: account.customer_id, definition, updated_by: actor.userId, created_at: now, updated_at: now }).execute();
      }
      await this.recorder.record(uow, actor, { audit: { action: 'update', entity: 'carrier_rate_table', entityId: account.id, customerId: account.customer_id, after: input.definition } });
    });
    return { message: `Rate table of ${account.account_name} saved`, data: await this.rateTable(principal, account.id) };
  }

  // ---------- rate shopping ----------

  private async packedOrder(db: Executor, principal: Principal, orderId: number) {
    const order = await repo.order(db, principal.scope, orderId);
    if (!order) throw notFound('Order');
    if (order.status !== 'Packed') throw conflict(`Order ${order.so_number} is ${order.status}; only Packed orders are rated and labelled`);
    const cartons = await repo.closedCartons(db, orderId);
    if (cartons.length === 0) throw conflict(`Order ${order.so_number} has no closed carton`);
    const unweighed = cartons.filter((c) => c.weight_kg === null || n(c.weight_kg) <= 0);
    if (unweighed.length) {
      throw unprocessable(`Weigh every carton first: ${unweighed.map((c) => c.carton_number).join(', ')} ${unweighed.length === 1 ? 'has' : 'have'} no weight`, { weightKg: `No weight: ${unweighed.map((c) => c.carton_number).join(', ')}` });
    }
    return { order, cartons };
  }

  private static parcels(cartons: CartonRow[]): ParcelPackage[] {
    return cartons.map((c, i) => ({ packageNo: i + 1, weightKg: n(c.weight_kg), lengthCm: n(c.length_cm), widthCm: n(c.width_cm), heightCm: n(c.height_cm) }));
  }

  /** Every service of every carrier account of the order's customer, priced; a failing carrier becomes its quotes' error. */
  private async quotes(order: OrderRow, cartons: CartonRow[], residential: boolean, now = new Date()): Promise<RateQuote[]> {
    const accounts = await this.accounts.load(this.db, order.customer_id);
    const today = businessDay(order.timezone, now);
    const clock = clockIn(order.timezone, now);
    const packages = ShippingService.parcels(cartons);
    const quotes: RateQuote[] = [];
    for (const account of accounts) {
      const adapter = adapterFor(account);
      let rates: ServiceRate[];
      try {
        rates = await adapter.rate({ account, shipTo: { postalCode: order.ship_to_zip ?? '', country: order.ship_to_country, residential }, packages });
      } catch (err) {
        if (!(err instanceof CarrierError)) throw err;
        rates = [{ serviceCode: '-', serviceName: account.name, totalMinor: null, currency: 'USD', zone: null, transitDays: null, cutoff: null, error: err.exception, errorMessage: err.message, packages: [] }];
      }
      for (const r of rates) {
        const shipDate = businessFrom(r.cutoff && clock > r.cutoff ? dayPlus(today, 1) : today);
        quotes.push({
          carrierAccountId: account.id, accountName: account.name, adapter: adapter.code, serviceCode: r.serviceCode, serviceName: r.serviceName,
          totalMinor: r.totalMinor, currency: r.currency, zone: r.zone, transitDays: r.transitDays, cutoff: r.cutoff, shipDate,
          estimatedDelivery: r.transitDays === null ? null : addBusinessDays(shipDate, r.transitDays),
          meetsShipDate: !order.requested_ship_date || shipDate <= order.requested_ship_date,
          error: r.error, errorMessage: r.errorMessage, packages: r.packages,
        });
      }
    }
    return quotes;
  }

  /**
   * The service a shipment takes: the order's requested service when an account offers it priced (or manual);
   * else the cheapest priced service that ships by the requested ship date; else the cheapest priced; else a
   * manual carrier; else none (no rate). The reason says which rule chose.
   */
  static choose(quotes: RateQuote[], order: { requested_ship_date: string | null; carrier_account_id: number | null; carrier_service: string | null }): { chosen: RateQuote | null; reason: string } {
    const usable = quotes.filter((q) => !q.error);
    const priced = usable.filter((q) => q.totalMinor !== null).sort((a, b) => a.totalMinor! - b.totalMinor! || a.carrierAccountId - b.carrierAccountId);
    const wanted = order.carrier_service?.trim().toLowerCase();
    if (wanted) {
      const match = usable.find((q) => (order.carrier_account_id === null || q.carrierAccountId === order.carrier_account_id)
        && (q.serviceCode.toLowerCase() === wanted || q.serviceName.toLowerCase() === wanted));
      if (match) return { chosen: match, reason: `The order asks for ${match.serviceName} (${match.accountName})` };
    }
    const requested = order.requested_ship_date;
    const inTime = priced.filter((q) => q.meetsShipDate);
    if (inTime.length) {
      const cheaper = requested ? priced.find((q) => !q.meetsShipDate && q.totalMinor! < inTime[0].totalMinor!) : undefined;
      const why = requested ? `Cheapest service that ships by ${requested}` : 'Cheapest service';
      return { chosen: inTime[0], reason: cheaper ? `${why} (${cheaper.serviceName} is cheaper but ships ${cheaper.shipDate})` : why };
    }
    if (priced.length) return { chosen: priced[0], reason: `No service ships by ${requested}; the cheapest ships ${priced[0].shipDate}` };
    const manual = usable.find((q) => q.adapter === 'manual');
    if (manual) return { chosen: manual, reason: `No priced service; ${manual.accountName} is a manual carrier (tracking entered by hand)` };
    const first = quotes.find((q) => q.error);
    return { chosen: null, reason: first ? `No rate: ${first.errorMessage}` : 'No rate: the client has no active carrier account' };
  }

  private static exceptionOf(quotes: RateQuote[], chosen: RateQuote | null): string | null {
    if (chosen) return null;
    if (quotes.length === 0) return 'no-carrier: the client has no active carrier account';
    const over = quotes.find((q) => q.error === 'overweight');
    const first = over ?? quotes.find((q) => q.error);
    return `${first?.error ?? 'no-rate'}: ${first?.errorMessage ?? 'no rate'}`;
  }

  /** Creates the order's shipment (Open, SHP number, ship-to copied) when it has none; answers it held for the transaction. */
  private async shipmentFor(uow: UnitOfWork, actor: Actor, order: OrderRow) {
    const existing = await repo.liveShipmentOfOrder(uow.tx, order.id);
    if (existing) return existing;
    const { number } = await documentNumbers.next(uow, 'SHP');
    const now = new Date().toISOString();
    const kind: ShipmentKind = 'order';
    const row = await uow.tx.insertInto('shipment').values({
      shipment_number: number, kind, warehouse_id: order.warehouse_id, customer_id: order.customer_id, order_id: order.id,
      carrier_account_id: order.carrier_account_id, adapter: null, service_code: null, service_name: null, reference: order.reference_number,
      ship_to_name: order.ship_to_name, ship_to_address1: order.ship_to_address1, ship_to_address2: order.ship_to_address2, ship_to_city: order.ship_to_city,
      ship_to_state: order.ship_to_state, ship_to_zip: order.ship_to_zip, ship_to_country: order.ship_to_country,
      rate_minor: null, rate_reason: null, exception: null, ship_day: null, manifest_id: null, created_by: actor.userId, created_at: now, updated_at: now,
      labelled_at: null, shipped_at: null, closed_at: null,
    }).returningAll().executeTakeFirstOrThrow();
    await this.recorder.record(uow, actor, shipmentCreated(row, { shipmentNumber: number, orderId: order.id }));
    return row;
  }

  /**
   * Rate shopping for a packed order: every service priced, one chosen with its reason, written on the order's
   * shipment (made Open if it has none). A labelled shipment keeps its service: the quotes are answered only.
   */
  async rateShop(principal: Principal, input: { orderId: number; residential?: boolean }, actor: Actor): Promise<RateShopResult> {
    const { order, cartons } = await this.packedOrder(this.db, principal, input.orderId);
    const current = await repo.liveShipmentOfOrder(this.db, order.id);
    const residential = input.residential ?? (current ? n(current.residential) === 1 : false);
    const quotes = await this.quotes(order, cartons, residential);
    const { chosen, reason } = ShippingService.choose(quotes, order);
    const shipment = await inTransaction(this.db, async (uow) => {
      const s = await this.shipmentFor(uow, actor, order);
      if (s.status !== 'Open') return s;
      const set = {
        carrier_account_id: chosen?.carrierAccountId ?? s.carrier_account_id, adapter: chosen?.adapter ?? null, service_code: chosen?.serviceCode ?? null,
        service_name: chosen?.serviceName ?? null, rate_minor: chosen?.totalMinor ?? null, currency: chosen?.currency ?? 'USD', rate_reason: reason.slice(0, 255),
        exception: ShippingService.exceptionOf(quotes, chosen)?.slice(0, 255) ?? null, residential: residential ? 1 : 0, updated_at: new Date().toISOString(),
      };
      await uow.tx.updateTable('shipment').set(set).where('id', '=', s.id).execute();
      return { ...s, ...set };
    });
    return {
      orderId: order.id, soNumber: order.so_number, shipmentId: shipment.id, shipmentNumber: shipment.shipment_number,
      requestedShipDate: order.requested_ship_date, requestedService: order.carrier_service, quotes, chosen, reason,
      cartons: cartons.map((c) => ({ cartonId: c.id, cartonNumber: c.carton_number })),
    };
  }

  // ---------- labels ----------

  /**
   * Labels every closed carton of a packed order with one carrier service (the one asked, else the rate shop's
   * choice): a package per carton with its SSCC (when the customer has a GS1 prefix), the carrier's tracking number
   * and charge; the shipment Labelled; a `label` activity event per package carrying the charge. A carrier's
   * refusal writes nothing but the exception on the shipment (shown on the dashboard), and answers 422.
   */
  async createLabels(principal: Principal, input: { orderId: number; carrierAccountId?: number; serviceCode?: string; residential?: boolean; tracking?: { cartonId: number; trackingNumber: string }[] }, actor: Actor) {
    const { order, cartons } = await this.packedOrder(this.db, principal, input.orderId);
    const live = await repo.liveShipmentOfOrder(this.db, order.id);
    if (live && live.status !== 'Open') throw conflict(`Shipment ${live.shipment_number} is ${live.status}; void its labels to label again`);
    const residential = input.residential ?? (live ? n(live.residential) === 1 : false);
    for (const t of input.tracking ?? []) {
      if (!cartons.some((c) => c.id === t.cartonId)) throw unprocessable(`Carton ${t.cartonId} is not a closed carton of order ${order.so_number}`, { tracking: `Carton ${t.cartonId} is not on this order` });
    }

    // Which account and service: as asked, else what the shipment has, else the rate shop's choice.
    let accountId = input.carrierAccountId || undefined;
    let serviceCode = input.serviceCode;
    if (!accountId && live?.carrier_account_id && live.service_code) {
      accountId = live.carrier_account_id;
      serviceCode ??= live.service_code;
    }
    if (!accountId || !serviceCode) {
      const quotes = await this.quotes(order, cartons, residential);
      const { chosen, reason } = ShippingService.choose(quotes.filter((q) => !accountId || q.carrierAccountId === accountId), order);
      if (!chosen) {
        await this.recordException(principal, actor, order, ShippingService.exceptionOf(quotes, null) ?? reason);
        throw unprocessable(reason, { carrierAccountId: reason });
      }
      accountId = chosen.carrierAccountId;
      serviceCode ??= chosen.serviceCode;
    }
    const [account] = await this.accounts.load(this.db, order.customer_id, accountId);
    if (!account) throw unprocessable(`Carrier account ${accountId} is not an account of ${order.customer_name}`, { carrierAccountId: 'Not a carrier account of this client' });
    const adapter = adapterFor(account);
    const rates = await adapter.rate({ account, shipTo: { postalCode: order.ship_to_zip ?? '', country: order.ship_to_country, residential }, packages: ShippingService.parcels(cartons) }).catch(() => []);
    const service = rates.find((r) => r.serviceCode === serviceCode);
    if (!service) throw unprocessable(`${account.name} has no service ${serviceCode}`, { serviceCode: `Not a service of ${account.name}` });

    try {
      const shipmentId = await inTransaction(this.db, async (uow) => {
        const shipment = await this.shipmentFor(uow, actor, order);
        const now = new Date().toISOString();
        const rows = await uow.tx.insertInto('shipment_package').values(cartons.map((c, i) => ({
          shipment_id: shipment.id, package_no: i + 1, carton_id: c.id, sscc: null, tracking_number: null, weight_kg: n(c.weight_kg),
          length_cm: n(c.length_cm), width_cm: n(c.width_cm), height_cm: n(c.height_cm), billed_kg: null, charge_minor: null, voided_at: null, created_at: now,
        }))).returning(['id', 'package_no']).execute();
        const packageIds = new Map(rows.map((r) => [n(r.package_no), n(r.id)]));
        const entered = new Map<number, string>();
        cartons.forEach((c, i) => { const t = input.tracking?.find((x) => x.cartonId === c.id); if (t) entered.set(i + 1, t.trackingNumber); });
        const result = await adapter.label({
          account, serviceCode: serviceCode!, shipmentNumber: shipment.shipment_number, enteredTracking: entered, packageIds,
          shipTo: { postalCode: order.ship_to_zip ?? '', country: order.ship_to_country, residential }, packages: ShippingService.parcels(cartons),
        });
        const prefixed = (await uow.tx.selectFrom('customer').select('gs1_company_prefix').where('id', '=', order.customer_id).executeTakeFirst())?.gs1_company_prefix;
        let total: number | null = null;
        for (const p of result.packages) {
          const sscc = prefixed ? await nextSscc(uow, order.customer_id) : null;
          if (p.chargeMinor !== null) total = (total ?? 0) + p.chargeMinor;
          await uow.tx.updateTable('shipment_package').set({ tracking_number: p.trackingNumber, charge_minor: p.chargeMinor, billed_kg: p.billedKg, sscc })
            .where('id', '=', packageIds.get(p.packageNo)!).execute();
        }
        await this.statuses.transition(uow, actor, {
          kind: 'SHIPMENT', id: shipment.id, to: 'Labelled', from: ['Open'],
          set: {
            carrier_account_id: account.id, adapter: adapter.code, service_code: service.serviceCode, service_name: service.serviceName, rate_minor: total,
            currency: service.currency, exception: null, residential: residential ? 1 : 0, labelled_at: now, updated_at: now,
            rate_reason: input.serviceCode || input.carrierAccountId ? 'Chosen at labelling' : shipment.rate_reason,
          },
          change: { audit: { action: 'label', entity: 'shipment', entityId: shipment.id, warehouseId: order.warehouse_id, customerId: order.customer_id, after: { service: service.serviceName, packages: result.packages.length, chargeMinor: total } } },
        });
        await this.parts.floorEvents.record(uow, actor, result.packages.map((p): FloorEvent => ({
          kind: 'label', warehouseId: order.warehouse_id, customerId: order.customer_id, orderId: order.id, cartonId: cartons[p.packageNo - 1].id, quantity: 1,
          docType: 'SHIPMENT', docId: shipment.id, detail: service.serviceCode, amountMinor: p.chargeMinor,
        })));
        return shipment.id;
      });
      const detail = await this.get(principal, shipmentId);
      return { message: `${detail.packages} label${detail.packages === 1 ? '' : 's'} for ${detail.shipmentNumber} (${detail.serviceName})`, data: detail };
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err;
      await this.recordException(principal, actor, order, `${err.exception}: ${err.message}`);
      throw unprocessable(err.message, { [err.field ?? 'carrierAccountId']: err.message });
    }
  }

  /** A carrier's refusal, on the order's shipment (made if it has none), so the dashboard lists it among the exceptions. */
  private async recordException(_principal: Principal, actor: Actor, order: OrderRow, exception: string) {
    await inTransaction(this.db, async (uow) => {
      const s = await this.shipmentFor(uow, actor, order);
      await uow.tx.updateTable('shipment').set({ exception: exception.slice(0, 255), updated_at: new Date().toISOString() }).where('id', '=', s.id).execute();
    });
  }

  private async ownShipment(principal: Principal, shipmentId: number) {
    const [s] = await repo.shipments(this.db, principal.scope, [shipmentId]);
    if (!s) throw notFound('Shipment');
    return s;
  }

  /** Voids a shipment's labels before it ships: back to Open, the packages kept as voided, a `void-label` event each. */
  async voidLabels(principal: Principal, input: { shipmentId: number; reason?: string }, actor: Actor) {
    const s = await this.ownShipment(principal, input.shipmentId);
    const packages = await repo.livePackages(this.db, [s.id]);
    await inTransaction(this.db, async (uow) => {
      const now = new Date().toISOString();
      await this.statuses.transition(uow, actor, {
        kind: 'SHIPMENT', id: s.id, to: 'Open', from: ['Labelled'], reason: input.reason ?? null, set: { labelled_at: null, rate_minor: null, updated_at: now },
        refusal: (status) => `Shipment ${s.shipment_number} is ${status}; only labels not yet shipped can be voided`,
        change: { audit: { action: 'void-label', entity: 'shipment', entityId: s.id, warehouseId: s.warehouse_id, customerId: s.customer_id, before: { trackingNumbers: packages.map((p) => p.tracking_number) } } },
      });
      await repo.voidPackages(uow.tx, s.id, now);
      await this.parts.floorEvents.record(uow, actor, packages.map((p): FloorEvent => ({
        kind: 'void-label', warehouseId: s.warehouse_id, customerId: s.customer_id, orderId: s.order_id, cartonId: p.carton_id, quantity: 1,
        docType: 'SHIPMENT', docId: s.id, detail: s.service_code, amountMinor: nOrNull(p.charge_minor),
      })));
    });
    const [account] = s.carrier_account_id ? await this.accounts.load(this.db, s.customer_id, s.carrier_account_id) : [];
    if (account) await adapterByCode(s.adapter).void(account, packages.map((p) => p.tracking_number!).filter(Boolean));
    return { message: `Labels of ${s.shipment_number} voided`, data: await this.get(principal, s.id) };
  }

  /** A shipment's tracking: its carrier's adapter asked per standing parcel (a manual carrier, or one without an account, knows none). */
  async track(principal: Principal, shipmentId: number): Promise<ShipmentTracking> {
    const s = await this.ownShipment(principal, shipmentId);
    const packages = (await repo.livePackages(this.db, [s.id])).filter((p) => p.tracking_number);
    const [account] = s.carrier_account_id ? await this.accounts.load(this.db, s.customer_id, s.carrier_account_id) : [];
    const parcels = [];
    for (const p of packages) parcels.push({ trackingNumber: p.tracking_number!, events: account ? await adapterByCode(s.adapter).track(account, p.tracking_number!) : [] });
    return { shipmentId: s.id, shipmentNumber: s.shipment_number, adapter: s.adapter, parcels };
  }

  /** Cancels an Open shipment (no label stands). */
  async cancel(principal: Principal, input: { shipmentId: number; reason?: string }, actor: Actor) {
    const s = await this.ownShipment(principal, input.shipmentId);
    await inTransaction(this.db, (uow) => this.statuses.transition(uow, actor, {
      kind: 'SHIPMENT', id: s.id, to: 'Cancelled', from: ['Open'], reason: input.reason ?? null, set: { updated_at: new Date().toISOString() },
      refusal: (status) => `Shipment ${s.shipment_number} is ${status}; void its labels before cancelling`,
      change: { audit: { action: 'cancel', entity: 'shipment', entityId: s.id, warehouseId: s.warehouse_id, customerId: s.customer_id } },
    }));
    return { message: `Shipment ${s.shipment_number} cancelled`, data: await this.get(principal, s.id) };
  }

  /** Label documents of shipments: carrier labels or SSCC labels, as one 4x6 PDF or ZPL text. */
  async labels(principal: Principal, shipmentIds: number[], format: 'pdf' | 'zpl', kind: 'carrier' | 'sscc'): Promise<Buffer | string> {
    const ids = [...new Set(shipmentIds)];
    if (ids.length > 1000) throw unprocessable('At most 1000 shipments at a time', { shipmentIds: 'At most 1000' });
    const shipments = await repo.shipments(this.db, principal.scope, ids);
    const found = new Map(shipments.map((s) => [s.id, s]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw notFound(`Shipment ${missing.join(', ')}`);
    const unlabelled = shipments.filter((s) => s.status === 'Open' || s.status === 'Cancelled');
    if (unlabelled.length) throw conflict(`${unlabelled.map((s) => s.shipment_number).join(', ')} ${unlabelled.length === 1 ? 'has' : 'have'} no labels`);
    const packages = await repo.livePackages(this.db, ids);
    const labels: LabelData[] = [];
    for (const id of ids) {
      const s = found.get(id)!;
      const own = packages.filter((p) => p.shipment_id === id);
      for (const p of own) {
        if (kind === 'sscc' && !p.sscc) throw unprocessable(`${s.shipment_number} has no SSCC: set the client's GS1 company prefix and label again`, { gs1CompanyPrefix: 'Set the client\'s GS1 company prefix' });
        const warehouse = { name: s.warehouse_name, lines: [joined(s.wh_address1, s.wh_address2), joined(s.wh_city, spaced(s.wh_state, s.wh_zip)), s.wh_country ?? ''].filter(Boolean), postalCode: s.wh_zip ?? '' };
        const party = { name: s.ship_to_name ?? '—', lines: [joined(s.ship_to_address1, s.ship_to_address2), joined(s.ship_to_city, spaced(s.ship_to_state, s.ship_to_zip)), s.ship_to_country ?? ''].filter(Boolean), postalCode: s.ship_to_zip ?? '' };
        // A return label goes the other way: from the consumer (the shipment's party) back to the warehouse.
        const [from, to] = s.kind === 'return' ? [party, warehouse] : [warehouse, party];
        labels.push({
          shipmentNumber: s.shipment_number, soNumber: s.so_number, reference: s.reference, accountName: s.account_name ?? '', serviceName: s.service_name ?? '',
          shipFrom: { name: from.name, lines: from.lines }, shipTo: to,
          packageNo: n(p.package_no), packageCount: own.length, weightKg: nOrNull(p.weight_kg), trackingNumber: p.tracking_number ?? '', sscc: p.sscc,
          shipDate: s.ship_day ?? businessDay(s.timezone, s.labelled_at ?? new Date()),
        });
      }
    }
    if (format === 'zpl') return labels.map(kind === 'sscc' ? ssccLabelZpl : carrierLabelZpl).join('\n');
    return labelsPdf(labels, kind);
  }

  // ---------- ship ----------

  /**
   * Ships labelled shipments through ship confirm (stock out, order Shipped, backorders); the order's shipment
   * follows it there (see `followOrders`). Each shipment on its own: one refusal never stops the others.
   */
  async ship(principal: Principal, input: { shipmentIds: number[] }, actor: Actor) {
    const ids = [...new Set(input.shipmentIds)];
    const shipments = new Map((await repo.shipments(this.db, principal.scope, ids)).map((s) => [s.id, s]));
    const packages = await repo.livePackages(this.db, ids);
    const result: { shipped: { shipmentId: number; shipmentNumber: string; soNumber: string | null }[]; refused: { shipmentId: number; shipmentNumber: string | null; message: string }[] } = { shipped: [], refused: [] };
    for (const id of ids) {
      const s = shipments.get(id);
      if (!s) { result.refused.push({ shipmentId: id, shipmentNumber: null, message: 'Shipment not found' }); continue; }
      if (s.status !== 'Labelled') { result.refused.push({ shipmentId: id, shipmentNumber: s.shipment_number, message: `Shipment ${s.shipment_number} is ${s.status}; only labelled shipments ship` }); continue; }
      if (!s.order_id) { result.refused.push({ shipmentId: id, shipmentNumber: s.shipment_number, message: 'Only order shipments ship here' }); continue; }
      const tracking = packages.filter((p) => p.shipment_id === id && p.carton_id && p.tracking_number).map((p) => ({ cartonId: p.carton_id!, trackingNumber: p.tracking_number! }));
      const outcome = await this.parts.shipConfirm.confirm(principal, { warehouseId: s.warehouse_id, orderIds: [s.order_id], tracking }, actor);
      if (outcome.data.shipped.length) result.shipped.push({ shipmentId: id, shipmentNumber: s.shipment_number, soNumber: s.so_number });
      else result.refused.push({ shipmentId: id, shipmentNumber: s.shipment_number, message: outcome.data.refused[0]?.message ?? 'Not shipped' });
    }
    const parts = [`${result.shipped.length} shipment${result.shipped.length === 1 ? '' : 's'} shipped`];
    if (result.refused.length) parts.push(`${result.refused.length} refused`);
    return { message: parts.join(', '), data: result };
  }

  /**
   * In ship confirm's transaction, when an order becomes Shipped: its labelled shipment becomes Shipped (ship day
   * in the warehouse's time) and its tracking numbers go onto cartons that have none; an Open shipment (never
   * labelled: the order went without a label) is cancelled.
   */
  followOrders(domainEvents: DomainEvents): void {
    domainEvents.inTransaction('document.status-changed', 'shipping.order-shipped', async (e, { uow, actor }) => {
      if (e.kind !== 'SALES_ORDER' || e.to !== 'Shipped') return;
      const s = await repo.liveShipmentOfOrder(uow.tx, e.documentId);
      if (!s) return;
      const now = new Date();
      if (s.status === 'Labelled') {
        await repo.trackingOntoCartons(uow.tx, e.documentId, s.id);
        await this.statuses.transition(uow, actor, {
          kind: 'SHIPMENT', id: s.id, to: 'Shipped', from: ['Labelled'],
          set: { shipped_at: now.toISOString(), ship_day: await this.timeZones.dayOf(s.warehouse_id, now, uow.tx), updated_at: now.toISOString() },
          change: { audit: { action: 'ship', entity: 'shipment', entityId: s.id, warehouseId: s.warehouse_id, customerId: s.customer_id } },
        });
      } else if (s.status === 'Open') {
        await this.statuses.transition(uow, actor, { kind: 'SHIPMENT', id: s.id, to: 'Cancelled', from: ['Open'], reason: 'The order shipped without a label', set: { updated_at: now.toISOString() } });
      }
    });
  }

  /** Every status change of a shipment (labelled, voided, shipped, closed, cancelled) is told to the screens that list shipments. */
  announceStatusChanges(domainEvents: DomainEvents): void {
    domainEvents.inTransaction('document.status-changed', 'shipping.announce-status', async (e, { uow, actor }) => {
      if (e.kind !== 'SHIPMENT') return;
      await this.recorder.record(uow, actor, {
        audit: [],
        events: { target: 'ReceiveShipmentData', payload: { subEvent: 'ShipmentStatus', payload: { shipmentId: e.documentId, status: e.to } }, warehouseId: e.warehouseId, customerId: e.customerId },
      });
    });
  }

  // ---------- end-of-day close ----------

  /**
   * Closes the day of one carrier account in a warehouse: every shipped shipment not yet on a manifest goes on a
   * new manifest (totals of its standing packages) and becomes Closed — locked: no void, no cancel. Nothing to
   * close (closing twice) is a 409 and writes nothing.
   */
  async closeDay(principal: Principal, input: { warehouseId: number; carrierAccountId: number }, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId });
    const account = await repo.account(this.db, principal.scope, input.carrierAccountId);
    if (!account) throw notFound('Carrier account');
    const manifestId = await inTransaction(this.db, async (uow) => {
      const shipments = await repo.toClose(uow.tx, input.warehouseId, account.id);
      if (shipments.length === 0) throw conflict(`Nothing to close for ${account.account_name}: no shipped parcels since its last manifest`);
      const packages = await repo.livePackages(uow.tx, shipments.map((s) => s.id));
      const now = new Date();
      const day = await this.timeZones.dayOf(input.warehouseId, now, uow.tx);
      const { number } = await documentNumbers.next(uow, 'MAN');
      const totals = {
        weight: Math.round(packages.reduce((sum, p) => sum + n(p.weight_kg ?? 0), 0) * 1000) / 1000,
        charge: packages.reduce((sum, p) => sum + n(p.charge_minor ?? 0), 0),
      };
      const manifest = await uow.tx.insertInto('manifest').values({
        manifest_number: number, warehouse_id: input.warehouseId, customer_id: account.customer_id, carrier_account_id: account.id, business_day: day,
        shipment_count: shipments.length, package_count: packages.length, total_weight_kg: totals.weight, total_charge_minor: totals.charge,
        currency: shipments[0].currency, closed_by: actor.userId, closed_by_name: actor.username, closed_at: now.toISOString(),
      }).returning('id').executeTakeFirstOrThrow();
      for (const s of shipments) {
        await this.statuses.transition(uow, actor, {
          kind: 'SHIPMENT', id: s.id, to: 'Closed', from: ['Shipped'], set: { manifest_id: manifest.id, closed_at: now.toISOString(), updated_at: now.toISOString() },
        });
      }
      await this.recorder.record(uow, actor, { audit: { action: 'close-day', entity: 'manifest', entityId: manifest.id, warehouseId: input.warehouseId, customerId: account.customer_id, after: { manifestNumber: number, shipments: shipments.length, packages: packages.length, chargeMinor: totals.charge } } });
      await this.parts.floorEvents.record(uow, actor, [{
        kind: 'manifest', warehouseId: input.warehouseId, customerId: account.customer_id, quantity: packages.length, docType: 'MANIFEST', docId: n(manifest.id),
        detail: number, amountMinor: totals.charge,
      }], now);
      return n(manifest.id);
    });
    const [carrier] = await this.accounts.load(this.db, account.customer_id, account.id);
    const summary = await this.manifestSummary(principal, manifestId);
    if (carrier) await adapterFor(carrier).manifest(carrier, (await repo.manifestRows(this.db, manifestId)).map((r) => r.tracking_number ?? ''));
    return { message: `Manifest ${summary.manifestNumber}: ${summary.shipments} shipments, ${summary.packages} packages closed`, data: summary };
  }

  private static toManifest(m: NonNullable<Awaited<ReturnType<typeof repo.manifest>>> | Awaited<ReturnType<typeof repo.recentManifests>>[number]): ManifestSummary {
    return {
      manifestId: n(m.id), manifestNumber: m.manifest_number, warehouseId: n(m.warehouse_id), customerId: n(m.customer_id), customerName: m.customer_name,
      carrierAccountId: n(m.carrier_account_id), accountName: m.account_name, businessDay: m.business_day, shipments: n(m.shipment_count), packages: n(m.package_count),
      totalWeightKg: n(m.total_weight_kg), totalChargeMinor: n(m.total_charge_minor), currency: m.currency, closedAt: m.closed_at, closedBy: m.closed_by_name,
    };
  }

  async manifestSummary(principal: Principal, manifestId: number): Promise<ManifestSummary> {
    const m = await repo.manifest(this.db, principal.scope, manifestId);
    if (!m) throw notFound('Manifest');
    return ShippingService.toManifest(m);
  }

  /** A manifest as PDF or CSV: a row per package, and the totals. */
  async manifestDocument(principal: Principal, manifestId: number, format: 'pdf' | 'csv') {
    const m = await repo.manifest(this.db, principal.scope, manifestId);
    if (!m) throw notFound('Manifest');
    const rows = await repo.manifestRows(this.db, manifestId);
    const data: ManifestData = {
      manifestNumber: m.manifest_number, businessDay: m.business_day, warehouseName: m.warehouse_name, customerName: m.customer_name, accountName: m.account_name,
      closedAt: m.closed_at, closedBy: m.closed_by_name, currency: m.currency,
      rows: rows.map((r) => ({ shipmentNumber: r.shipment_number, soNumber: r.so_number, reference: r.reference, serviceName: r.service_name, shipToName: r.ship_to_name, shipToZip: r.ship_to_zip, trackingNumber: r.tracking_number ?? '', weightKg: n(r.weight_kg ?? 0), chargeMinor: nOrNull(r.charge_minor) })),
      totals: { shipments: n(m.shipment_count), packages: n(m.package_count), weightKg: n(m.total_weight_kg), chargeMinor: n(m.total_charge_minor) },
    };
    return { fileName: `${m.manifest_number}.${format}`, body: format === 'pdf' ? await manifestPdf(data) : manifestCsv(data) };
  }

  // ---------- reading ----------

  private summaryQuery(db: Executor, scope: Scope) {
    return db.selectFrom('shipment as s').innerJoin('customer as c', 'c.id', 's.customer_id').leftJoin('sales_order as o', 'o.id', 's.order_id')
      .leftJoin('customer_integration as ci', 'ci.id', 's.carrier_account_id').leftJoin('manifest as m', 'm.id', 's.manifest_id')
      .leftJoin('rma as r', 'r.id', 's.rma_id')
      .where(scope.where({ warehouse: 's.warehouse_id', customer: 's.customer_id' }));
  }

  private static summaryColumns = [
    's.id', 's.shipment_number', 's.kind', 's.status', 's.warehouse_id', 's.customer_id', 'c.name as customer_name', 's.order_id', 'o.so_number', 's.reference',
    's.carrier_account_id', 'ci.account_name', 's.adapter', 's.service_code', 's.service_name', 's.rate_minor', 's.currency', 's.rate_reason', 's.exception',
    's.ship_to_name', 's.ship_to_zip', 's.ship_day', 's.manifest_id', 'm.manifest_number', 's.created_at', 's.labelled_at', 's.shipped_at',
    's.rma_id', 'r.rma_number',
  ] as const;

  private static toSummary(r: Record<string, unknown>): ShipmentSummary {
    return {
      uniqueid: n(r.id), shipmentId: n(r.id), shipmentNumber: String(r.shipment_number), kind: r.kind as ShipmentKind, status: r.status as ShipmentStatus,
      warehouseId: n(r.warehouse_id), customerId: n(r.customer_id), customerName: String(r.customer_name), orderId: nOrNull(r.order_id),
      soNumber: (r.so_number as string | null) ?? null, referenceNumber: (r.reference as string | null) ?? null, carrierAccountId: nOrNull(r.carrier_account_id),
      accountName: (r.account_name as string | null) ?? null, adapter: (r.adapter as string | null) ?? null, serviceCode: (r.service_code as string | null) ?? null,
      serviceName: (r.service_name as string | null) ?? null, rateMinor: nOrNull(r.rate_minor), currency: String(r.currency), rateReason: (r.rate_reason as string | null) ?? null,
      exception: (r.exception as string | null) ?? null, shipToName: (r.ship_to_name as string | null) ?? null, shipToZip: (r.ship_to_zip as string | null) ?? null,
      packages: n(r.packages ?? 0), weightKg: Math.round(n(r.weight_kg ?? 0) * 1000) / 1000, shipDay: (r.ship_day as string | null) ?? null,
      manifestId: nOrNull(r.manifest_id), manifestNumber: (r.manifest_number as string | null) ?? null, createdAt: String(r.created_at),
      labelledAt: (r.labelled_at as string | null) ?? null, shippedAt: (r.shipped_at as string | null) ?? null,
      rmaId: nOrNull(r.rma_id), rmaNumber: (r.rma_number as string | null) ?? null,
    };
  }

  private static packageTotals() {
    return [
      sql<number>`(select count(*) from shipment_package p where p.shipment_id = s.id and p.voided = 0)`.as('packages'),
      sql<number>`(select coalesce(sum(p.weight_kg), 0) from shipment_package p where p.shipment_id = s.id and p.voided = 0)`.as('weight_kg'),
    ];
  }

  async list(principal: Principal, req: ListRequest<ShipmentFilterValues>) {
    const f = req.filters ?? {};
    let base = this.summaryQuery(this.db, principal.scope);
    if (f.warehouseId) base = base.where('s.warehouse_id', '=', f.warehouseId);
    if (f.customerId) base = base.where('s.customer_id', '=', f.customerId);
    if (f.carrierAccountId) base = base.where('s.carrier_account_id', '=', f.carrierAccountId);
    if (f.status) base = base.where('s.status', '=', f.status);
    if (f.shipDay) base = base.where('s.ship_day', '=', f.shipDay);
    if (f.manifestId) base = base.where('s.manifest_id', '=', f.manifestId);
    if (f.kind) base = base.where('s.kind', '=', f.kind);
    if (f.rmaId) base = base.where('s.rma_id', '=', f.rmaId);
    const rows = await listRows(this.dialect, base, (q) => q.select([...ShippingService.summaryColumns, ...ShippingService.packageTotals()]), req, {
      sortable: { shipmentNumber: 's.shipment_number', status: 's.status', createdAt: 's.created_at', shipDay: 's.ship_day', rateMinor: 's.rate_minor' },
      defaultSort: { column: 's.id', direction: 'desc' }, searchable: ['s.shipment_number', 's.reference', 's.ship_to_name'], tieBreaker: 's.id',
    });
    return toListPage(rows, (r) => ShippingService.toSummary(r as Record<string, unknown>));
  }

  /** One shipment of any day or kind in the caller's scope (another customer's is a 404): its view, and every mutation's answer. */
  async get(principal: Principal, shipmentId: number): Promise<ShipmentDetail> {
    const row = await this.summaryQuery(this.db, principal.scope).select([...ShippingService.summaryColumns, ...ShippingService.packageTotals()]).where('s.id', '=', shipmentId).executeTakeFirst();
    if (!row) throw notFound('Shipment');
    const [packages, lines, view, history] = await Promise.all([
      repo.allPackages(this.db, shipmentId), repo.lines(this.db, shipmentId), repo.viewParts(this.db, shipmentId), repo.history(this.db, shipmentId),
    ]);
    return {
      ...ShippingService.toSummary(row as Record<string, unknown>),
      packageList: packages.map((p) => ({
        packageId: n(p.id), packageNo: n(p.package_no), cartonId: nOrNull(p.carton_id), cartonNumber: p.carton_number ?? null, sscc: p.sscc, trackingNumber: p.tracking_number,
        weightKg: nOrNull(p.weight_kg), lengthCm: nOrNull(p.length_cm), widthCm: nOrNull(p.width_cm), heightCm: nOrNull(p.height_cm), billedKg: nOrNull(p.billed_kg),
        chargeMinor: nOrNull(p.charge_minor), voided: n(p.voided) === 1,
      })),
      trackingNumbers: packages.filter((p) => n(p.voided) === 0 && p.tracking_number).map((p) => p.tracking_number!),
      lines: lines.map((l) => ({
        lineNo: n(l.line_no), skuId: n(l.sku_id), skuCode: l.sku_code, description: l.description ?? '', locationId: n(l.location_id), locationCode: l.location_code, lot: l.lot, quantity: n(l.quantity),
      })),
      warehouseName: view.warehouse_name,
      shipTo: {
        name: view.ship_to_name, address1: view.ship_to_address1, address2: view.ship_to_address2, city: view.ship_to_city,
        state: view.ship_to_state, zip: view.ship_to_zip, country: view.ship_to_country,
      },
      residential: n(view.residential) === 1, orderStatus: view.order_status ?? null, closedAt: view.closed_at === null ? null : String(view.closed_at),
      history: history.map((h) => ({ from: h.from_status, to: h.to_status, at: String(h.at), username: h.username, reason: h.reason })),
    };
  }

  /** The dashboard of a warehouse: packed orders waiting (by carrier, with the cut-off), shipped today, what is left to close, recent manifests. */
  async dashboard(principal: Principal, warehouseId: number, customerId?: number): Promise<ShippingDashboard> {
    principal.scope.assert({ warehouseId, customerId });
    const day = await this.timeZones.dayOf(warehouseId, new Date());
    const waiting = await repo.waiting(this.db, principal.scope, warehouseId, customerId || undefined);
    const shippedToday = await this.summaryQuery(this.db, principal.scope).select([...ShippingService.summaryColumns, ...ShippingService.packageTotals()])
      .where('s.warehouse_id', '=', warehouseId).where('s.ship_day', '=', day).where('s.status', 'in', ['Shipped', 'Closed'])
      .$if(!!customerId, (q) => q.where('s.customer_id', '=', customerId!)).orderBy('s.id', 'desc').limit(1000).execute();
    const toClose = await repo.openForClose(this.db, principal.scope, warehouseId, customerId || undefined);
    const manifests = await repo.recentManifests(this.db, principal.scope, warehouseId, customerId || undefined, 20);
    return {
      businessDay: day,
      waiting: waiting.map((w) => {
        const table = w.definition ? (JSON.parse(w.definition) as RateTableDefinition) : null;
        const service = table?.services.find((s) => s.code === (w.service_code ?? w.carrier_service)) ?? table?.services[0];
        const exception = w.exception ?? (w.carrier_account_id === null ? 'no-carrier: no carrier account on the order' : n(w.unweighed) > 0 ? 'no-rate: a carton has no weight' : null);
        return {
          orderId: n(w.id), soNumber: w.so_number, referenceNumber: w.reference_number, customerId: n(w.customer_id), customerName: w.customer_name,
          carrierAccountId: nOrNull(w.carrier_account_id), accountName: w.account_name, carrierService: w.carrier_service, requestedShipDate: w.requested_ship_date,
          cutoff: service?.cutoff ?? null, cartons: n(w.cartons), weightKg: w.weight_kg === null ? null : Math.round(n(w.weight_kg) * 1000) / 1000,
          shipToName: w.ship_to_name, shipToZip: w.ship_to_zip, shipmentId: nOrNull(w.shipment_id), shipmentNumber: w.shipment_number ?? null,
          shipmentStatus: (w.shipment_status as ShipmentStatus | null) ?? null, serviceName: w.service_name ?? null, rateMinor: nOrNull(w.rate_minor), exception,
        };
      }),
      shippedToday: shippedToday.map((r) => ShippingService.toSummary(r as Record<string, unknown>)),
      toClose: toClose.map((t) => ({ carrierAccountId: n(t.carrier_account_id), accountName: t.account_name, customerName: t.customer_name, shipments: n(t.shipments), packages: n(t.packages ?? 0) })),
      manifests: manifests.map(ShippingService.toManifest),
    };
  }
}

