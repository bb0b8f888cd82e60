import type { z } from 'zod';
import type { ShipmentKind, createManualShipmentInput, createReturnLabelInput } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import { conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { FloorEvent, FloorEvents } from '../../platform/floor-events.js';
import { count } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { CarrierAccounts } from './carrier-accounts.js';
import { CarrierError, adapterFor, type CarrierAccount, type CarrierAdapter, type ParcelPackage } from './carriers/index.js';
import { MANUAL_SERVICE } from './carriers/manual.js';
import { shipmentCreated, type ShippingService } from './shipping.service.js';
import { shippingRepository as repo } from './shipping.repository.js';

type ManualInput = z.infer<typeof createManualShipmentInput>;
type ReturnLabelInput = z.infer<typeof createReturnLabelInput>;
type CarrierChoice = Pick<ManualInput, 'carrierAccountId' | 'serviceCode' | 'trackingNumber' | 'carrierName' | 'residential' | 'packages'>;
interface Party { name: string; address1: string; address2: string | null; city: string; state: string | null; zip: string; country: string | null }

/** The carrier a manual shipment or return label goes with: an account's service, or a tracking number typed by hand. */
interface Carrier { account: CarrierAccount | null; adapter: CarrierAdapter | null; serviceCode: string; serviceName: string; currency: string }

/**
 * Shipments that are not an order's (issue 15 item 4, issue 14): a manual shipment (a replacement, an exchange)
 * takes its lines from stock through the stock engine (ledger document SHIPMENT, one leg per line, never more than
 * is free), is labelled through the carrier adapters or with a tracking number typed by hand, and ships at once;
 * an RMA's return label is a shipment of kind `return` from the consumer back to the warehouse, whose tracking
 * number puts the RMA In Transit (returns follow `shipment.return-labelled`). Everything in one transaction:
 * a refusal (short stock, a carrier's) writes nothing.
 */
export class ManualShipmentService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  private readonly statuses: StatusMachine;
  private readonly accounts: CarrierAccounts;

  constructor(deps: Pick<ServiceDeps, 'config' | 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly parts: { stock: StockEngine; floorEvents: FloorEvents; shipping: ShippingService }) {
    this.db = deps.db;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
    this.statuses = new StatusMachine(deps);
    this.accounts = new CarrierAccounts(deps.config.tokenSecret);
  }

  async createManual(principal: Principal, input: ManualInput, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    if (input.rmaId) {
      const rma = await repo.rma(this.db, principal.scope, input.rmaId);
      if (!rma) throw notFound('RMA');
      if (rma.warehouse_id !== input.warehouseId || rma.customer_id !== input.customerId) {
        throw unprocessable(`RMA ${rma.rma_number} is another warehouse's or client's`, { rmaId: 'Not an RMA of this warehouse and client' });
      }
    }
    const warehouse = await repo.warehouse(this.db, input.warehouseId);
    if (!warehouse) throw notFound('Warehouse');
    const carrier = await this.carrierFor(input.customerId, input, input.shipTo.zip);
    const to = input.shipTo;
    const shipmentId = await inTransaction(this.db, async (uow) => {
      const shipment = await this.open(uow, actor, 'manual', {
        warehouseId: input.warehouseId, customerId: input.customerId, rmaId: input.rmaId || null, reference: input.reference || null, carrier,
        residential: !!input.residential,
        party: { name: to.name, address1: to.address1, address2: to.address2 || null, city: to.city, state: to.state || null, zip: to.zip, country: to.country || null },
      });
      const lines = input.lines.map((l, i) => ({ shipment_id: shipment.id, line_no: i + 1, sku_id: l.skuId, location_id: l.locationId, lot: l.lot ?? '', pallet: l.pallet ?? '', quantity: l.quantity }));
      await uow.tx.insertInto('shipment_line').values(lines).execute();
      // One posting per line, so a short take names its line; the engine's conditional take never goes below what is free.
      for (const [i, l] of lines.entries()) {
        await this.parts.stock.post(uow, {
          documentType: 'SHIPMENT', documentId: shipment.shipment_number, documentLine: String(l.line_no), reason: 'Manual shipment',
          quantityField: `lines.${i}.quantity`,
          legs: [{ place: { warehouseId: input.warehouseId, customerId: input.customerId, skuId: l.sku_id, locationId: l.location_id, lot: l.lot, pallet: l.pallet }, qty: -l.quantity, txnType: 'ship' }],
          record: { kind: 'Ship', after: { shipmentNumber: shipment.shipment_number, line: l.line_no, quantity: l.quantity } },
          references: { warehouseId: input.warehouseId, customerId: input.customerId, skuId: l.sku_id, locationIds: [l.location_id] },
        }, actor);
      }
      await this.label(uow, actor, shipment, carrier, input, { postalCode: to.zip, country: to.country ?? null });
      const now = new Date();
      await this.statuses.transition(uow, actor, {
        kind: 'SHIPMENT', id: shipment.id, to: 'Shipped', from: ['Labelled'],
        set: { shipped_at: now.toISOString(), ship_day: await this.timeZones.dayOf(input.warehouseId, now, uow.tx), updated_at: now.toISOString() },
        change: { audit: { action: 'ship', entity: 'shipment', entityId: shipment.id, warehouseId: input.warehouseId, customerId: input.customerId, after: { lines: lines.length, units: lines.reduce((s, l) => s + l.quantity, 0) } } },
      });
      await this.parts.floorEvents.record(uow, actor, lines.map((l): FloorEvent => ({
        kind: 'manual-ship', warehouseId: input.warehouseId, customerId: input.customerId, skuId: l.sku_id, locationId: l.location_id, quantity: l.quantity,
        docType: 'SHIPMENT', docId: shipment.id, detail: shipment.shipment_number,
      })), now);
      return shipment.id;
    });
    const detail = await this.parts.shipping.get(principal, shipmentId);
    const units = detail.lines.reduce((s, l) => s + l.quantity, 0);
    return { message: `Shipment ${detail.shipmentNumber} shipped: ${count(units, 'unit')}, tracking ${detail.trackingNumbers.join(', ')}`, data: detail };
  }

  /** An RMA's return label: the consumer (the order's ship-to) back to the warehouse; the RMA becomes In Transit with its tracking number. */
  async createReturnLabel(principal: Principal, input: ReturnLabelInput, actor: Actor) {
    const rma = await repo.rma(this.db, principal.scope, input.rmaId);
    if (!rma) throw notFound('RMA');
    if (rma.status !== 'Authorised' && rma.status !== 'In Transit') throw conflict(`RMA ${rma.rma_number} is ${rma.status}; a return label is made before the goods arrive`);
    const live = await repo.liveReturnLabel(this.db, rma.id);
    if (live) throw conflict(`RMA ${rma.rma_number} already has return label ${live.shipment_number}; void it first`);
    const warehouse = await repo.warehouse(this.db, rma.warehouse_id);
    if (!warehouse) throw notFound('Warehouse');
    const carrier = await this.carrierFor(rma.customer_id, input, warehouse.zip ?? '');
    const shipmentId = await inTransaction(this.db, async (uow) => {
      // The RMA is held Authorised/In Transit for the transaction: a receipt meanwhile waits, then finds it labelled.
      await this.statuses.hold(uow, { kind: 'RMA', id: rma.id, in: ['Authorised', 'In Transit'] });
      const shipment = await this.open(uow, actor, 'return', {
        warehouseId: rma.warehouse_id, customerId: rma.customer_id, rmaId: rma.id, reference: rma.rma_number, carrier, residential: !!input.residential,
        party: {
          name: rma.ship_to_name ?? rma.so_number, address1: rma.ship_to_address1 ?? '', address2: rma.ship_to_address2, city: rma.ship_to_city ?? '',
          state: rma.ship_to_state, zip: rma.ship_to_zip ?? '', country: rma.ship_to_country,
        },
      });
      const tracking = await this.label(uow, actor, shipment, carrier, input, { postalCode: warehouse.zip ?? '', country: warehouse.country });
      await this.recorder.raise(uow, actor, 'shipment.return-labelled', {
        warehouseId: rma.warehouse_id, customerId: rma.customer_id, rmaId: rma.id, shipmentId: shipment.id, trackingNumber: tracking[0], carrier: carrier.account?.name ?? carrier.serviceName,
      });
      return shipment.id;
    });
    const detail = await this.parts.shipping.get(principal, shipmentId);
    return { message: `Return label ${detail.shipmentNumber} for RMA ${rma.rma_number}: tracking ${detail.trackingNumbers.join(', ')}`, data: detail };
  }

  /** The carrier asked for, checked before anything is written: the client's account and one of its services, or a typed tracking number. */
  private async carrierFor(customerId: number, input: CarrierChoice, destinationZip: string): Promise<Carrier> {
    if (!input.carrierAccountId) {
      return { account: null, adapter: null, serviceCode: MANUAL_SERVICE.code, serviceName: input.carrierName || MANUAL_SERVICE.name, currency: 'USD' };
    }
    const [account] = await this.accounts.load(this.db, customerId, input.carrierAccountId);
    if (!account) throw unprocessable(`Carrier account ${input.carrierAccountId} is not an account of this client`, { carrierAccountId: 'Not a carrier account of this client' });
    const adapter = adapterFor(account);
    const rates = await adapter.rate({ account, shipTo: { postalCode: destinationZip, country: null, residential: !!input.residential }, packages: parcels(input.packages) }).catch(() => []);
    // No service asked: the cheapest that prices the parcels (a manual carrier prices none: its one service).
    const priced = rates.filter((r) => !r.error).sort((a, b) => (a.totalMinor ?? 0) - (b.totalMinor ?? 0));
    const service = input.serviceCode ? rates.find((r) => r.serviceCode === input.serviceCode) : priced[0] ?? rates[0];
    if (!service) throw unprocessable(`${account.name} has no service ${input.serviceCode ?? ''}`.trim(), { serviceCode: `Not a service of ${account.name}` });
    if (service.error) throw unprocessable(service.errorMessage ?? 'No rate', { serviceCode: service.errorMessage ?? 'No rate' });
    return { account, adapter, serviceCode: service.serviceCode, serviceName: service.serviceName, currency: service.currency };
  }

  /** A new Open shipment of a kind with its party (ship-to, or for a return the consumer it comes from). */
  private async open(uow: UnitOfWork, actor: Actor, kind: ShipmentKind, s: {
    warehouseId: number; customerId: number; rmaId: number | null; reference: string | null; carrier: Carrier; residential: boolean; party: Party;
  }) {
    const { number } = await documentNumbers.next(uow, 'SHP');
    const now = new Date().toISOString();
    const row = await uow.tx.insertInto('shipment').values({
      shipment_number: number, kind, warehouse_id: s.warehouseId, customer_id: s.customerId, order_id: null, rma_id: s.rmaId,
      carrier_account_id: s.carrier.account?.id ?? null, adapter: s.carrier.adapter?.code ?? 'manual', service_code: s.carrier.serviceCode, service_name: s.carrier.serviceName,
      reference: s.reference, residential: s.residential ? 1 : 0, ship_to_name: s.party.name, ship_to_address1: s.party.address1, ship_to_address2: s.party.address2,
      ship_to_city: s.party.city, ship_to_state: s.party.state, ship_to_zip: s.party.zip, ship_to_country: s.party.country,
      rate_minor: null, currency: s.carrier.currency, rate_reason: s.carrier.account ? 'Chosen by hand' : 'Tracking number typed by hand', exception: null, ship_day: null,
      manifest_id: null, created_by: actor.userId, created_at: now, updated_at: now, labelled_at: null, shipped_at: null, closed_at: null,
    }).returningAll().executeTakeFirstOrThrow();
    await this.recorder.record(uow, actor, shipmentCreated(row, { shipmentNumber: number, rmaId: s.rmaId }));
    return row;
  }

  /**
   * The parcels' labels: the adapter's tracking numbers and charges, or the typed tracking number on the first parcel;
   * the shipment Labelled; a `label` activity event per parcel with its charge (billing's label fee). A carrier's
   * refusal is a 422 naming the field, and rolls everything back.
   */
  private async label(uow: UnitOfWork, actor: Actor, shipment: { id: number; shipment_number: string; warehouse_id: number; customer_id: number }, carrier: Carrier,
    input: CarrierChoice, destination: { postalCode: string; country: string | null }): Promise<string[]> {
    const now = new Date().toISOString();
    const packages = parcels(input.packages);
    const rows = await uow.tx.insertInto('shipment_package').values(packages.map((p) => ({
      shipment_id: shipment.id, package_no: p.packageNo, carton_id: null, sscc: null, tracking_number: null, weight_kg: p.weightKg, length_cm: p.lengthCm,
      width_cm: p.widthCm, height_cm: p.heightCm, billed_kg: null, charge_minor: null, voided_at: null, created_at: now,
    }))).returning(['id', 'package_no']).execute();
    const packageIds = new Map(rows.map((r) => [Number(r.package_no), Number(r.id)]));
    let result: { packageNo: number; trackingNumber: string; chargeMinor: number | null; billedKg: number | null }[];
    if (carrier.account && carrier.adapter) {
      try {
        result = (await carrier.adapter.label({
          account: carrier.account, serviceCode: carrier.serviceCode, shipmentNumber: shipment.shipment_number, packageIds, packages,
          enteredTracking: new Map(input.trackingNumber ? packages.map((p) => [p.packageNo, input.trackingNumber!]) : []),
          shipTo: { ...destination, residential: !!input.residential },
        })).packages;
      } catch (err) {
        if (err instanceof CarrierError) throw unprocessable(err.message, { [err.field === 'tracking' ? 'trackingNumber' : err.field ?? 'carrierAccountId']: err.message });
        throw err;
      }
    } else {
      result = packages.map((p) => ({ packageNo: p.packageNo, trackingNumber: input.trackingNumber!, chargeMinor: null, billedKg: null }));
    }
    let total: number | null = null;
    for (const p of result) {
      if (p.chargeMinor !== null) total = (total ?? 0) + p.chargeMinor;
      await uow.tx.updateTable('shipment_package').set({ tracking_number: p.trackingNumber, charge_minor: p.chargeMinor, billed_kg: p.billedKg }).where('id', '=', packageIds.get(p.packageNo)!).execute();
    }
    await this.statuses.transition(uow, actor, {
      kind: 'SHIPMENT', id: shipment.id, to: 'Labelled', from: ['Open'], set: { rate_minor: total, labelled_at: now, updated_at: now },
      change: { audit: { action: 'label', entity: 'shipment', entityId: shipment.id, warehouseId: shipment.warehouse_id, customerId: shipment.customer_id, after: { service: carrier.serviceName, packages: result.length, chargeMinor: total, trackingNumbers: result.map((p) => p.trackingNumber) } } },
    });
    if (carrier.account) {
      await this.parts.floorEvents.record(uow, actor, result.map((p): FloorEvent => ({
        kind: 'label', warehouseId: shipment.warehouse_id, customerId: shipment.customer_id, quantity: 1, docType: 'SHIPMENT', docId: shipment.id, detail: carrier.serviceCode, amountMinor: p.chargeMinor,
      })));
    }
    return result.map((p) => p.trackingNumber);
  }
}

const parcels = (packages: CarrierChoice['packages']): ParcelPackage[] => packages.map((p, i) => ({ packageNo: i + 1, ...p }));
