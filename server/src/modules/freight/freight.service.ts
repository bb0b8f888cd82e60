import {
  ERROR_CODES, NMFC_CLASSES, densityLbPerFt3, densityScaleOn, freightClassForDensity, type FreightShipmentDetail,
  type FreightShipmentFilters, type FreightShipmentSummary, type HandlingUnitView, type HubEventMap, type NmfcClass,
  type createFreightShipmentInput, type proofOfDeliveryFields, type setFreightStatusInput, type updateFreightShipmentInput,
} from '@bolx/contracts';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/schema.js';
import { classifyDbError, type Dialect } from '../../db/dialect.js';
import type { ShipConfirmService } from '../ship-confirm/ship-confirm.service.js';
import type { Actor } from '../../platform/actor.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { documentNumbers, formatNumber } from '../../platform/document-numbers.js';
import { AppError, badRequest, notFound, unprocessable } from '../../platform/errors.js';
import { checkUpload, deleteStoredFile, readStoredFile, storeFile } from '../../platform/files.js';
import type { FloorEvents } from '../../platform/floor-events.js';
import { gs1CheckDigit, nextSscc } from '../../platform/gs1.js';
import type { ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { billOfLadingPdf, type BillOfLadingData, type BolParty } from './bill-of-lading-pdf.js';
import { freightRepository as repo, type ShipmentRow } from './freight.repository.js';

type SubEvent = HubEventMap['ReceiveFreightData']['subEvent'];
type ShipmentInput = z.output<typeof createFreightShipmentInput>;
type ShipmentFields = Omit<ShipmentInput, 'warehouseId' | 'customerId'>;
type UnitInput = ShipmentFields['handlingUnits'][number];

const n = (v: unknown) => Number(v);
const KG_TO_LB = 2.20462262185;
/** Statuses in which a shipment may still be changed: once the carrier has it, only its status and POD move. */
const EDITABLE = ['Planned', 'Tendered', 'Booked'] as const;
/** A POD delivers a shipment the carrier has; a Delivered one may have its POD replaced. */
const POD_FROM = ['Picked Up', 'In Transit'] as const;
/** The handling unit types that get an SSCC pallet label. */
const PALLET_TYPES = new Set(['Pallet', 'Skid']);

/**
 * A pallet built from cartons: a 48×40 in (121.9×101.6 cm) GMA pallet, 14 cm deck and 20 kg tare, loaded to at most
 * 180 cm high — cartons fill it by volume in packing order, and a further pallet starts when one is full.
 */
const PALLET = { lengthCm: 121.9, widthCm: 101.6, deckCm: 14, tareKg: 20, maxHeightCm: 180 } as const;

const fieldConflict = (message: string, details: Record<string, string>) => new AppError(409, ERROR_CODES.CONFLICT, message, details);
const money = (minor: number | null) => (minor === null ? null : `$${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * LTL freight shipments: one customer's packed orders from one warehouse to a consignee, as handling units (pallets
 * built from the orders' closed cartons, or entered) with NMFC classes; a carrier by name and SCAC with its PRO
 * number (unique per carrier); the status machine from Planned to Delivered; the VICS bill of lading with SSCC
 * pallet labels; and the proof of delivery that delivers it.
 */
export class FreightService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  private readonly statuses: StatusMachine;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly floorEvents: FloorEvents, private readonly shipConfirm: ShipConfirmService) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
    this.statuses = new StatusMachine(deps);
  }

  /** The NMFC classes and the density scale in force today. */
  classes() {
    const scale = densityScaleOn(new Date().toISOString().slice(0, 10));
    return { classes: [...NMFC_CLASSES], scale: scale && { effectiveFrom: scale.effectiveFrom, docket: scale.docket, tiers: scale.tiers.map((t) => ({ ...t })) } };
  }

  async list(principal: Principal, req: ListRequest<FreightShipmentFilters>) {
    const page = await repo.page(this.db, this.dialect, principal.scope, req);
    return { items: await this.summaries(this.db, page.rows), totalCount: page.total };
  }

  async get(principal: Principal, shipmentId: number): Promise<FreightShipmentDetail> {
    return this.detail(this.db, principal.scope, shipmentId);
  }

  private async detail(db: Executor, scope: Scope, id: number): Promise<FreightShipmentDetail> {
    const row = await repo.find(db, scope, id);
    if (!row) throw notFound('Freight shipment');
    const [summary] = await this.summaries(db, [row]);
    const history = await repo.history(db, id);
    return { ...summary, history: history.map((h) => ({ fromStatus: h.from_status, toStatus: h.to_status, at: h.at, username: h.username, reason: h.reason })) };
  }

  /** Shipments with their orders and handling units: three statements for any page. */
  private async summaries(db: Executor, rows: ShipmentRow[]): Promise<FreightShipmentSummary[]> {
    const ids = rows.map((r) => r.id);
    const [orders, units] = [await repo.ordersOf(db, ids), await repo.unitsOf(db, ids)];
    return rows.map((r) => {
      const day = r.pickup_date ?? r.created_at.slice(0, 10);
      const own = units.filter((u) => u.shipment_id === r.id).map((u): HandlingUnitView => {
        const density = densityLbPerFt3(n(u.weight_kg) / n(u.handling_qty), n(u.length_cm), n(u.width_cm), n(u.height_cm));
        return {
          handlingUnitId: u.id, orderId: u.order_id, soNumber: u.so_number ?? null, handlingType: u.handling_type, handlingQty: n(u.handling_qty),
          packageType: u.package_type, pieces: n(u.pieces), weightKg: n(u.weight_kg), lengthCm: n(u.length_cm), widthCm: n(u.width_cm), heightCm: n(u.height_cm),
          freightClass: u.freight_class, nmfcItem: u.nmfc_item, description: u.description, hazmat: n(u.hazmat) === 1, unNumber: u.un_number, sscc: u.sscc,
          densityLbFt3: Math.round(density * 100) / 100, suggestedClass: freightClassForDensity(density, day),
        };
      });
      const address = (p: 'consignee' | 'bill_to') => ({
        name: r[`${p}_name`] ?? '', address1: r[`${p}_address1`] ?? '', address2: r[`${p}_address2`] ?? undefined, city: r[`${p}_city`] ?? '',
        state: r[`${p}_state`] ?? '', zip: r[`${p}_zip`] ?? '', country: r[`${p}_country`] ?? '', phone: r[`${p}_phone`] ?? undefined,
        locationNumber: r[`${p}_location_number`] ?? undefined,
      });
      return {
        uniqueid: r.id, shipmentId: r.id, shipNumber: r.ship_number, bolNumber: r.bol_number, status: r.status as FreightShipmentSummary['status'],
        warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id, customerName: r.customer_name,
        consignee: address('consignee'), billTo: r.bill_to_name ? address('bill_to') : null,
        carrierName: r.carrier_name, scac: r.scac, proNumber: r.pro_number, trailerNumber: r.trailer_number, sealNumber: r.seal_number,
        chargeTerms: r.charge_terms as FreightShipmentSummary['chargeTerms'],
        codAmountMinor: r.cod_amount_minor === null ? null : n(r.cod_amount_minor), declaredValueMinor: r.declared_value_minor === null ? null : n(r.declared_value_minor),
        declaredValuePer: r.declared_value_per, specialInstructions: r.special_instructions, pickupDate: r.pickup_date,
        pickupWindowFrom: r.pickup_window_from, pickupWindowTo: r.pickup_window_to, dockDoor: r.dock_door,
        orders: orders.filter((o) => o.shipment_id === r.id).map((o) => ({
          orderId: o.id, soNumber: o.so_number, referenceNumber: o.reference_number, status: o.status, cartons: n(o.cartons), weightKg: round1(n(o.weight_kg)),
        })),
        handlingUnits: own,
        totalHandlingUnits: own.reduce((s, u) => s + u.handlingQty, 0),
        totalPieces: own.reduce((s, u) => s + u.pieces, 0),
        totalWeightKg: round1(own.reduce((s, u) => s + u.weightKg, 0)),
        pickedUpAt: r.picked_up_at, deliveredAt: r.delivered_at,
        proofOfDelivery: r.pod_file_id ? {
          fileId: n(r.pod_file_id), fileName: r.pod_file_name ?? 'pod', mimeType: r.pod_mime_type ?? 'application/octet-stream',
          signedBy: r.pod_signed_by ?? '', signedAt: r.pod_signed_at ?? '',
        } : null,
        createdBy: r.created_by_name, createdAt: r.created_at,
      };
    });
  }

  // ---- Handling units from cartons ----

  /**
   * Pallets built from the orders' closed cartons (see PALLET): pieces, gross weight with the pallet's tare,
   * dimensions, and the class the density scale in force suggests. Nothing is written.
   */
  async suggestUnits(principal: Principal, input: { warehouseId: number; customerId: number; orderIds: number[] }) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    const orders = await this.checkOrders(this.db, principal, input.warehouseId, input.customerId, input.orderIds, null);
    const cartons = await repo.closedCartons(this.db, input.orderIds);
    const day = await this.timeZones.dayOf(input.warehouseId);
    const footprint = PALLET.lengthCm * PALLET.widthCm;
    const room = footprint * (PALLET.maxHeightCm - PALLET.deckCm);
    return orders.flatMap((o) => {
      const pallets: { pieces: number; volume: number; weight: number }[] = [];
      for (const c of cartons.filter((x) => x.order_id === o.id)) {
        const volume = n(c.length_cm) * n(c.width_cm) * n(c.height_cm);
        let last = pallets.at(-1);
        if (!last || (last.volume + volume > room && last.pieces > 0)) pallets.push(last = { pieces: 0, volume: 0, weight: 0 });
        last.pieces += 1;
        last.volume += volume;
        last.weight += n(c.weight_kg ?? 0);
      }
      return pallets.map((p) => {
        const heightCm = Math.min(PALLET.maxHeightCm, PALLET.deckCm + Math.ceil(p.volume / footprint));
        const weightKg = round1(p.weight + PALLET.tareKg);
        const density = densityLbPerFt3(weightKg, PALLET.lengthCm, PALLET.widthCm, heightCm);
        const suggested = freightClassForDensity(density, day);
        return {
          orderId: o.id, handlingType: 'Pallet' as const, handlingQty: 1, packageType: 'Carton' as const, pieces: p.pieces, weightKg,
          lengthCm: PALLET.lengthCm, widthCm: PALLET.widthCm, heightCm, freightClass: (suggested ?? '100') as NmfcClass,
          description: `Order ${o.so_number}`, hazmat: false, densityLbFt3: Math.round(density * 100) / 100, suggestedClass: suggested,
        };
      });
    });
  }

  /**
   * The orders a shipment carries: the caller's, of this customer and warehouse, packed (or shipped) and on no other
   * live shipment. 422 naming `orderIds` otherwise (another customer's order is "not an order of" this customer,
   * never named); 409 when another shipment has it.
   */
  private async checkOrders(db: Executor, principal: Principal, warehouseId: number, customerId: number, orderIds: number[], shipmentId: number | null) {
    const ids = [...new Set(orderIds)];
    const found = new Map((await repo.orders(db, ids)).map((o) => [o.id, o]));
    const customer = await repo.customer(db, customerId);
    for (const id of ids) {
      const o = found.get(id);
      if (!o || o.customer_id !== customerId || o.warehouse_id !== warehouseId || !principal.scope.admits({ warehouseId: o.warehouse_id, customerId: o.customer_id })) {
        const message = `Order ${id} is not an order of ${customer?.name ?? 'this customer'} in this warehouse`;
        throw unprocessable(message, { orderIds: message });
      }
      if (!['Packed', 'Shipped'].includes(o.status)) {
        const message = `Order ${o.so_number} is ${o.status}; only packed orders go on a freight shipment`;
        throw unprocessable(message, { orderIds: message });
      }
    }
    const taken = await repo.ordersOnOtherShipments(db, ids, shipmentId);
    if (taken.length) {
      const message = `Order ${taken[0].so_number} is already on freight shipment ${taken[0].ship_number}`;
      throw fieldConflict(message, { orderIds: message });
    }
    return ids.map((id) => found.get(id)!);
  }

  // ---- Create and update ----

  async create(principal: Principal, input: ShipmentInput, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    if (!(await repo.serves(this.db, input.warehouseId, input.customerId))) {
      throw unprocessable('This client is not served by this warehouse', { customerId: 'This client is not served by this warehouse' });
    }
    const id = await this.proGuarded(input, () => inTransaction(this.db, async (uow) => {
      await this.checkFields(uow.tx, principal, input.warehouseId, input.customerId, input, null);
      const customer = (await repo.customer(uow.tx, input.customerId))!;
      const shipNumber = (await documentNumbers.next(uow, 'FRT')).number;
      const bolNumber = await this.nextBolNumber(uow, input.customerId, customer.gs1_company_prefix);
      const at = new Date().toISOString();
      const shipmentId = await repo.insertShipment(uow.tx, {
        ship_number: shipNumber, bol_number: bolNumber, warehouse_id: input.warehouseId, customer_id: input.customerId, status: 'Planned',
        ...this.columns(input), created_by: actor.userId, created_at: at, updated_at: at,
      });
      await repo.setOrders(uow.tx, shipmentId, [...new Set(input.orderIds)]);
      await repo.setUnits(uow.tx, shipmentId, await this.unitRows(uow, input.customerId, input.handlingUnits, new Map()));
      const after = await this.detail(uow.tx, Scope.everything, shipmentId);
      await this.record(uow, actor, after, 'create', 'AddFreightShipment');
      return shipmentId;
    }));
    const data = await this.detail(this.db, Scope.everything, id);
    return { message: `Freight shipment ${data.shipNumber} created`, data };
  }

  async update(principal: Principal, input: z.output<typeof updateFreightShipmentInput>, actor: Actor) {
    const current = await repo.find(this.db, principal.scope, input.shipmentId);
    if (!current) throw notFound('Freight shipment');
    await this.proGuarded(input, () => inTransaction(this.db, async (uow) => {
      await this.statuses.hold(uow, {
        kind: 'FREIGHT_SHIPMENT', id: current.id, in: EDITABLE, set: { updated_at: new Date().toISOString() },
        refusal: (status) => `Freight shipment ${current.ship_number} is ${status}; it can be changed until it is picked up`,
      });
      await this.checkFields(uow.tx, principal, current.warehouse_id, current.customer_id, input, current.id);
      const before = await this.detail(uow.tx, Scope.everything, current.id);
      await repo.updateShipment(uow.tx, current.id, this.columns(input));
      await repo.setOrders(uow.tx, current.id, [...new Set(input.orderIds)]);
      const kept = new Map(before.handlingUnits.filter((u) => u.sscc).map((u) => [u.handlingUnitId, u.sscc!]));
      await repo.setUnits(uow.tx, current.id, await this.unitRows(uow, current.customer_id, input.handlingUnits, kept));
      const after = await this.detail(uow.tx, Scope.everything, current.id);
      await this.record(uow, actor, after, 'update', 'UpdateFreightShipment', before);
    }));
    const data = await this.detail(this.db, Scope.everything, current.id);
    return { message: `Freight shipment ${data.shipNumber} saved`, data };
  }

  /**
   * Two requests racing for one PRO number both pass the check (neither sees the other's row); the unique index
   * then stops the later at its insert. That answers the same 409, naming the field, as the check does.
   */
  private async proGuarded<T>(input: { scac: string; proNumber?: string }, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const text = `${(err as { constraint?: string }).constraint ?? ''} ${(err as Error).message ?? ''}`;
      if (input.proNumber && classifyDbError(err) === 'unique' && /freight_shipment_pro|freight_shipment\.pro_number/.test(text)) {
        const message = `PRO number ${input.proNumber} of ${input.scac} is already used by another freight shipment`;
        throw fieldConflict(message, { proNumber: message });
      }
      throw err;
    }
  }

  /** The rules beyond the contract: the orders, the units' orders, and the PRO number unique per carrier. */
  private async checkFields(tx: Executor, principal: Principal, warehouseId: number, customerId: number, input: ShipmentFields, shipmentId: number | null) {
    await this.checkOrders(tx, principal, warehouseId, customerId, input.orderIds, shipmentId);
    input.handlingUnits.forEach((u, i) => {
      if (u.orderId && !input.orderIds.includes(u.orderId)) {
        throw unprocessable(`Handling unit ${i + 1} names an order the shipment does not carry`, { [`handlingUnits.${i}.orderId`]: 'Not an order of this shipment' });
      }
    });
    if (input.proNumber) {
      const holder = await repo.proHolder(tx, input.scac, input.proNumber, shipmentId);
      if (holder) {
        const message = `PRO number ${input.proNumber} of ${input.scac} is already used by freight shipment ${holder.ship_number}`;
        throw fieldConflict(message, { proNumber: message });
      }
    }
  }

  private columns(input: ShipmentFields) {
    const address = (p: 'consignee' | 'bill_to', a: ShipmentFields['consignee'] | undefined) => ({
      [`${p}_name`]: a?.name ?? null, [`${p}_address1`]: a?.address1 ?? null, [`${p}_address2`]: a?.address2 || null, [`${p}_city`]: a?.city ?? null,
      [`${p}_state`]: a?.state ?? null, [`${p}_zip`]: a?.zip ?? null, [`${p}_country`]: a?.country ?? null, [`${p}_phone`]: a?.phone || null,
      [`${p}_location_number`]: a?.locationNumber || null,
    });
    return {
      ...(address('consignee', input.consignee) as Record<`consignee_${string}`, string>),
      ...(address('bill_to', input.billTo) as Record<`bill_to_${string}`, string | null>),
      carrier_name: input.carrierName, scac: input.scac, pro_number: input.proNumber || null, trailer_number: input.trailerNumber || null,
      seal_number: input.sealNumber || null, charge_terms: input.chargeTerms, cod_amount_minor: input.codAmountMinor ?? null,
      declared_value_minor: input.declaredValueMinor ?? null, declared_value_per: input.declaredValuePer || null,
      special_instructions: input.specialInstructions || null, pickup_date: input.pickupDate ?? null, pickup_window_from: input.pickupWindowFrom ?? null,
      pickup_window_to: input.pickupWindowTo ?? null, dock_door: input.dockDoor || null, updated_at: new Date().toISOString(),
    } as unknown as {
      consignee_name: string; consignee_address1: string; consignee_address2: string | null; consignee_city: string; consignee_state: string;
      consignee_zip: string; consignee_country: string; consignee_phone: string | null; consignee_location_number: string | null;
      carrier_name: string; scac: string; charge_terms: string; updated_at: string;
    } & Record<string, string | number | null>;
  }

  /**
   * The units' rows: a pallet (or skid) of a customer with a GS1 company prefix gets an SSCC — the one it had when the
   * update keeps it (by handlingUnitId), else the customer's next.
   */
  private async unitRows(uow: UnitOfWork, customerId: number, units: UnitInput[], kept: Map<number, string>) {
    const customer = await repo.customer(uow.tx, customerId);
    const rows = [];
    for (const [i, u] of units.entries()) {
      let sscc: string | null = null;
      if (PALLET_TYPES.has(u.handlingType) && customer?.gs1_company_prefix) {
        sscc = (u.handlingUnitId && kept.get(u.handlingUnitId)) || await nextSscc(uow, customerId);
      }
      rows.push({
        line_no: i + 1, order_id: u.orderId ?? null, handling_type: u.handlingType, handling_qty: u.handlingQty, package_type: u.packageType,
        pieces: u.pieces, weight_kg: u.weightKg, length_cm: u.lengthCm, width_cm: u.widthCm, height_cm: u.heightCm, freight_class: u.freightClass,
        nmfc_item: u.nmfcItem || null, description: u.description, hazmat: u.hazmat ? 1 : 0, un_number: u.hazmat ? u.unNumber ?? null : null, sscc,
      });
    }
    return rows;
  }

  /**
   * The BOL number: with the customer's GS1 company prefix, the VICS 17 digits (prefix, serial from the customer's own
   * BOL sequence, mod-10 check digit); without one, the system's BOL-000123.
   */
  private async nextBolNumber(uow: UnitOfWork, customerId: number, prefix: string | null) {
    if (!prefix) return (await documentNumbers.next(uow, 'BOL')).number;
    const { value } = await documentNumbers.next(uow, 'BOL', { customerId });
    const body = `${prefix}${String(value).padStart(16 - prefix.length, '0')}`;
    return body.length === 16 ? body + gs1CheckDigit(body) : formatNumber('BOL', value);
  }

  // ---- Status ----

  /**
   * Moves a shipment along (the contracts' table decides from where). Booked needs a PRO number (422 naming it);
   * Picked Up stamps the time, records the freight-ship activity event and ships the shipment's orders through ship
   * confirm in the same transaction (stock out, orders Shipped, backorders): an order that cannot ship refuses the
   * pickup. Delivered comes only with a POD.
   */
  async setStatus(principal: Principal, input: z.output<typeof setFreightStatusInput>, actor: Actor) {
    const current = await repo.find(this.db, principal.scope, input.shipmentId);
    if (!current) throw notFound('Freight shipment');
    if (input.status === 'Booked' && !current.pro_number) {
      throw unprocessable(`Freight shipment ${current.ship_number} needs the carrier's PRO number to be booked`, { proNumber: 'Enter the PRO number the carrier gave' });
    }
    const data = await inTransaction(this.db, async (uow) => {
      const before = await this.detail(uow.tx, Scope.everything, current.id);
      const at = new Date();
      await this.statuses.transition(uow, actor, {
        kind: 'FREIGHT_SHIPMENT', id: current.id, to: input.status, reason: input.reason ?? null,
        set: { updated_at: at.toISOString(), ...(input.status === 'Picked Up' ? { picked_up_at: at.toISOString() } : {}) },
      });
      if (input.status === 'Picked Up') {
        await this.shipConfirm.shipWithin(uow, principal, actor, before.orders);
        await this.floorEvents.record(uow, actor, [{
          kind: 'freight-ship', warehouseId: current.warehouse_id, customerId: current.customer_id, docType: 'FREIGHT', docId: current.id,
          quantity: before.totalHandlingUnits, detail: current.scac,
        }], at);
      }
      const after = await this.detail(uow.tx, Scope.everything, current.id);
      await this.record(uow, actor, after, `status:${input.status}`, 'FreightStatus', { status: before.status });
      return after;
    });
    return { message: `Freight shipment ${data.shipNumber} is ${data.status}`, data };
  }

  // ---- Bill of lading ----

  async billOfLading(principal: Principal, shipmentId: number): Promise<{ pdf: Buffer; shipNumber: string }> {
    const s = await this.detail(this.db, principal.scope, shipmentId);
    const wh = await repo.warehouse(this.db, s.warehouseId);
    const lines = (a: { address1?: string | null; address2?: string | null; city?: string | null; state?: string | null; zip?: string | null; country?: string | null }) => [
      a.address1, a.address2, [a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '), a.country,
    ].filter((l): l is string => !!l);
    const party = (a: FreightShipmentSummary['consignee']): BolParty => ({ name: a.name, lines: [...lines(a), ...(a.phone ? [`Phone: ${a.phone}`] : [])], locationNumber: a.locationNumber ?? null });
    const unitsOf = (orderId: number) => s.handlingUnits.filter((u) => u.orderId === orderId);
    const pallets = s.handlingUnits.filter((u) => u.sscc);
    const postal = s.consignee.zip.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
    const data: BillOfLadingData = {
      bolNumber: s.bolNumber, shipNumber: s.shipNumber, date: s.pickupDate ?? await this.timeZones.dayOf(s.warehouseId), customerName: s.customerName,
      shipFrom: { name: wh?.name ?? s.warehouseName, lines: wh ? lines(wh) : [] },
      shipTo: party(s.consignee), billTo: s.billTo ? party(s.billTo) : null,
      carrierName: s.carrierName, scac: s.scac, proNumber: s.proNumber, trailerNumber: s.trailerNumber, sealNumber: s.sealNumber, chargeTerms: s.chargeTerms,
      codAmount: money(s.codAmountMinor), declaredValue: money(s.declaredValueMinor), declaredValuePer: s.declaredValuePer, specialInstructions: s.specialInstructions,
      pickup: s.pickupDate ? [s.pickupDate, s.pickupWindowFrom && s.pickupWindowTo ? `${s.pickupWindowFrom}–${s.pickupWindowTo}` : s.pickupWindowFrom, s.dockDoor ? `dock door ${s.dockDoor}` : null].filter(Boolean).join(', ') : null,
      orders: s.orders.map((o) => {
        const own = unitsOf(o.orderId);
        const weightKg = own.length ? own.reduce((sum, u) => sum + u.weightKg, 0) : o.weightKg;
        return {
          orderNumber: o.soNumber, pieces: own.length ? own.reduce((sum, u) => sum + u.pieces, 0) : o.cartons, weightLb: weightKg * KG_TO_LB,
          palletSlip: own.some((u) => PALLET_TYPES.has(u.handlingType)), info: `Ref ${o.referenceNumber}`,
        };
      }),
      units: s.handlingUnits.map((u) => ({
        handlingQty: u.handlingQty, handlingType: u.handlingType, pieces: u.pieces, packageType: u.packageType, weightLb: u.weightKg * KG_TO_LB,
        hazmat: u.hazmat, description: u.hazmat && u.unNumber ? `${u.unNumber} ${u.description}` : u.description, nmfcItem: u.nmfcItem, freightClass: u.freightClass,
      })),
      totalWeightKg: s.totalWeightKg,
      pallets: pallets.map((u, i) => ({
        sscc: u.sscc!, index: i + 1, count: pallets.length, orderNumber: u.soNumber, pieces: u.pieces, weightKg: u.weightKg,
        shipToPostal: postal || null, description: u.description,
      })),
    };
    return { pdf: await billOfLadingPdf(data), shipNumber: s.shipNumber };
  }

  // ---- Proof of delivery ----

  /**
   * Keeps the proof of delivery (an image or a PDF, signed-by and when) and delivers the shipment: only one the
   * carrier has (Picked Up, In Transit) — 409 naming shipmentId for any other, and nothing is written. A Delivered
   * shipment's POD may be replaced (the old file goes).
   */
  async uploadPod(principal: Principal, upload: { fields: z.output<typeof proofOfDeliveryFields>; file: { fileName: string; bytes: Buffer } | null }, actor: Actor) {
    const { fields } = upload;
    const current = await repo.find(this.db, principal.scope, fields.shipmentId);
    if (!current) throw notFound('Freight shipment');
    const refused = (status: string) => {
      const message = `Freight shipment ${current.ship_number} is ${status}; a proof of delivery is taken once the carrier has picked it up`;
      return fieldConflict(message, { shipmentId: message });
    };
    if (![...POD_FROM, 'Delivered'].includes(current.status)) throw refused(current.status);
    if (!upload.file) throw badRequest('Attach the signed delivery receipt (an image or a PDF)', { file: 'Attach the signed delivery receipt (an image or a PDF)' });
    const checked = checkUpload(upload.file, { allowed: ['pdf', 'png', 'jpeg'], maxBytes: 10 * 1024 * 1024 });
    const signedAt = new Date(fields.signedAt);
    if (signedAt.getTime() > Date.now() + 5 * 60_000) throw badRequest('The delivery cannot be signed in the future', { signedAt: 'The delivery cannot be signed in the future' });
    if (current.picked_up_at && signedAt < new Date(current.picked_up_at)) {
      throw badRequest('The delivery was signed before the freight was picked up', { signedAt: 'The delivery was signed before the freight was picked up' });
    }
    const data = await inTransaction(this.db, async (uow) => {
      const before = await this.detail(uow.tx, Scope.everything, current.id);
      const stored = await storeFile(uow.tx, { fileName: upload.file!.fileName, mimeType: checked.mimeType, bytes: upload.file!.bytes, createdBy: actor.userId });
      const set = { pod_file_id: stored.id, pod_signed_by: fields.signedBy, pod_signed_at: signedAt.toISOString(), updated_at: new Date().toISOString() };
      if (current.status === 'Delivered') {
        await this.statuses.hold(uow, { kind: 'FREIGHT_SHIPMENT', id: current.id, in: ['Delivered'], set, refusal: (s) => refused(s).message });
      } else {
        await this.statuses.transition(uow, actor, {
          kind: 'FREIGHT_SHIPMENT', id: current.id, to: 'Delivered', from: POD_FROM, set: { ...set, delivered_at: signedAt.toISOString() },
          reason: `Signed by ${fields.signedBy}`, refusal: (s) => refused(s).message,
        });
      }
      if (before.proofOfDelivery) await deleteStoredFile(uow.tx, before.proofOfDelivery.fileId);
      const after = await this.detail(uow.tx, Scope.everything, current.id);
      await this.record(uow, actor, after, 'proof-of-delivery', 'ProofOfDelivery', { status: before.status, proofOfDelivery: before.proofOfDelivery });
      return after;
    });
    return { message: `Proof of delivery kept: freight shipment ${data.shipNumber} delivered, signed by ${fields.signedBy}`, data };
  }

  async podFile(principal: Principal, shipmentId: number) {
    const s = await repo.find(this.db, principal.scope, shipmentId);
    if (!s) throw notFound('Freight shipment');
    const file = s.pod_file_id ? await readStoredFile(this.db, n(s.pod_file_id)) : undefined;
    if (!file) throw notFound('Proof of delivery');
    return file;
  }

  /** The audit row and hub event of a shipment's change, in its transaction. */
  private record(uow: UnitOfWork, actor: Actor, after: FreightShipmentSummary, action: string, subEvent: SubEvent, before?: unknown) {
    return this.recorder.record(uow, actor, {
      audit: { action, entity: 'freight_shipment', entityId: after.shipmentId, warehouseId: after.warehouseId, customerId: after.customerId, before, after },
      events: { target: 'ReceiveFreightData', payload: { subEvent, payload: after }, warehouseId: after.warehouseId, customerId: after.customerId },
    });
  }
}
