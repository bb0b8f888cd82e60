import type { Location } from './locations.js';
import type { JobView } from './jobs.js';

/**
 * The real-time hub's event map (spec section 7, Real-time hub): hub method name → argument. Every module
 * that raises live updates adds its event here; server and web both type against it. Who receives an event is
 * declared beside it on the server (server/src/platform/hub/event-audiences.ts: the route that lists its record).
 */
export interface HubEventMap {
  ReceiveWareHousedata: { subEvent: 'AddWarehouse' | 'UpdateWarehouse'; payload: unknown };
  ReceiveUserData: { subEvent: 'AddUser' | 'UpdateUser'; payload: { warehouses: number[]; customers: number[]; [k: string]: unknown } };
  ReceiveCustomerData: { subEvent: 'AddCustomer' | 'UpdateCustomer'; payload: unknown };
  ReceiveSkuData: {
    subEvent:
      | 'SkuAdd' | 'SkuUpdate'
      | 'AddPackage' | 'UpdatePackage' | 'DeletePackage'
      | 'AddAttribute' | 'UpdateAttribute' | 'DeleteAttribute'
      | 'AddBarcode' | 'UpdateBarcode' | 'DeleteBarcode'
      | 'AddKitComponent' | 'UpdateKitComponent' | 'DeleteKitComponent';
    payload: unknown;
    skuId?: number;
    customerId?: number;
  };
  /** Stock changed: the balances of one document (move, adjustment, receipt…). */
  ReceiveInventoryData: {
    subEvent: 'Move' | 'Adjust' | 'MovePallet' | 'CycleCount' | 'Replenish' | 'Receive' | 'Putaway' | 'Import' | 'Kit' | 'Pick' | 'Pack' | 'Ship';
    payload: { document: string; skuId: number | null; locationIds: number[] };
  };
  /** Adjustment requests above a customer's threshold: raised, approved, rejected. */
  ReceiveAdjustmentData: { subEvent: 'AdjustmentPosted' | 'AdjustmentRequested' | 'AdjustmentApproved' | 'AdjustmentRejected'; payload: { adjustmentId: number; status: string } };
  /** Cycle counts: created, counted, sent to recount, approved, cancelled. */
  ReceiveCycleCountData: { subEvent: 'AddCycleCount' | 'UpdateCycleCount'; payload: { cycleCountId: number; status: string } };
  /** Replenishment rules and tasks. */
  ReceiveReplenishmentData: { subEvent: 'UpdateRule' | 'AddTasks' | 'UpdateTask'; payload: { ruleId?: number; taskIds?: number[]; status?: string } };
  /** Receiving orders: created, changed, goods received at the dock, put away, finalized, cancelled; payload is the RO summary. */
  ReceiveReceivingData: {
    subEvent: 'AddReceivingOrder' | 'UpdateReceivingOrder' | 'CancelReceivingOrder' | 'FinalizeReceivingOrder' | 'ReceiveItem' | 'Putaway' | 'AddDocument';
    payload: unknown;
    detail?: Record<string, unknown>;
  };
  /** Outbound orders: taken in, and each status change (held, hold released, cancelled…); payload is the order summary. */
  ReceiveOrderData: {
    subEvent:
      | 'AddOrder' | 'HoldOrder' | 'ReleaseHold' | 'CancelOrder' | 'UpdateOrder' | 'AllocateOrder' | 'UnallocateOrder'
      | 'ReleaseOrder' | 'PickOrder' | 'PackOrder' | 'ShipOrder';
    payload: unknown;
    detail?: Record<string, unknown>;
  };
  /** The floor: waves released, cancelled or done; pick jobs assigned, taken, progressed, finished (payload: the wave or job summary). */
  ReceiveWaveData: { subEvent: 'AddWave' | 'UpdateWave' | 'UpdateJob'; payload: unknown };
  /** Kit work orders: created, completed (built or unbuilt through the ledger), cancelled; payload is the work order summary. */
  ReceiveKitData: { subEvent: 'AddWorkOrder' | 'CompleteWorkOrder' | 'CancelWorkOrder'; payload: unknown };
  /**
   * Locations of one warehouse: one created or updated (payload: the location as the lists show it), or many
   * created at once by a pattern or an uploaded sheet (payload: how many, and the first and last code).
   */
  ReceiveLocationData:
    | { subEvent: 'AddLocation' | 'UpdateLocation'; payload: Location }
    | { subEvent: 'AddLocations'; payload: LocationBatch };
  /** A background job of the receiving user: queued, progressed, succeeded or failed (only its owner hears it). */
  /** Returns (issue 15): RMAs created and moved, units received, inspected and disposed, parcels without an RMA. */
  ReceiveRmaData: {
    subEvent: 'AddRma' | 'UpdateRma' | 'ReceiveReturn' | 'InspectReturn' | 'DisposeReturn' | 'ManualReturn' | 'LinkReturn';
    payload: { rmaId: number | null; itemId?: number; status?: string };
  };
  /** Parcel shipments (issue 14): made, labelled, voided, shipped, closed on a manifest; manual shipments and return labels too. */
  ReceiveShipmentData: { subEvent: 'AddShipment' | 'ShipmentStatus'; payload: { shipmentId: number; status: string; kind?: string } };
  /** LTL freight shipments: created, changed, a status change, a proof of delivery; payload is the shipment summary. */
  ReceiveFreightData: { subEvent: 'AddFreightShipment' | 'UpdateFreightShipment' | 'FreightStatus' | 'ProofOfDelivery'; payload: unknown };
  /** Help desk tickets (issue 18): opened, changed, moved, commented on, a file attached. */
  ReceiveTicketData: { subEvent: 'AddTicket' | 'UpdateTicket' | 'TicketStatus' | 'AddComment' | 'AddAttachment'; payload: { ticketId: number; status: string } };
  /** The pallet register (issue 18): pallets added one by one or from a file. */
  ReceivePalletData: { subEvent: 'AddPallets'; payload: { warehouseId: number; count: number } };
  ReceiveJobData: { subEvent: 'JobQueued' | 'JobProgress' | 'JobSucceeded' | 'JobFailed' | 'JobRetrying' | 'JobCancelled'; payload: JobView };
}
/** ReceiveLocationData's AddLocations payload. */
export interface LocationBatch {
  warehouseId: number;
  count: number;
  firstCode: string;
  lastCode: string;
  source: 'pattern' | 'upload';
}
export type HubEventName = keyof HubEventMap;
