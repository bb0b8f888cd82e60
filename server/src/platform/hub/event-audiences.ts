import type { HubEventMap, HubEventName } from '@bolx/contracts';
import type { DomainEvent } from '../events.js';
import type { Principal } from '../principal.js';
import type { Tenancy } from '../scope.js';

/** Who is on a connection: its user's principal, loaded at connect and kept fresh. */
export type Audience = Principal;

type UserPayload = HubEventMap['ReceiveUserData']['payload'];

/**
 * How one event finds its audience: the list route that shows its record. That route's policy (roles, module)
 * and the caller's scope decide, exactly as for a request to it; nothing about who may see what is re-stated here.
 */
export interface EventAudience<K extends HubEventName> {
  /** 'METHOD /path' of the route that lists the event's record. */
  listedBy: string;
  /**
   * What the list holds its rows to, as its `Scope.where` columns: the event's warehouse, its customer, or both.
   * Or, for a record that is not one warehouse's and customer's, where it belongs, read from the event.
   */
  scopedBy: readonly ('warehouse' | 'customer')[] | ((event: Pick<DomainEvent<K>, 'payload'>) => Tenancy);
  /** The record as that list shows it to one caller, when the list trims it to the caller's scope. */
  viewFor?: (payload: HubEventMap[K], audience: Audience) => HubEventMap[K];
  /**
   * The list shows a client account another record (only its own stock in it), so this payload is not for
   * client accounts whatever their modules.
   */
  staffView?: true;
  /** The record is one user's (a background job): only that user hears it, on top of the route and scope. */
  ownerOf?: (payload: HubEventMap[K]) => number | null;
}

/**
 * Every hub event's audience. A mapped type over the contracts' event map: an event added there without an entry
 * here does not compile, and the hub refuses to start when an entry names a route that does not exist.
 */
export const EVENT_AUDIENCES: { [K in HubEventName]: EventAudience<K> } = {
  ReceiveWareHousedata: { listedBy: 'POST /Warehouse/Warehouse/GetWarehouses', scopedBy: ['warehouse'] },
  ReceiveUserData: {
    listedBy: 'POST /Warehouse/User/GetUsers',
    // The user list shows a user to whoever sees one of their warehouses (a Client account's: its customer's)...
    scopedBy: (event) => ({ anyWarehouseOf: (event.payload.payload as UserPayload).warehouses }),
    // ...and of their assignments only the warehouses and clients in the caller's own scope.
    viewFor: (event, audience) => ({ ...event, payload: userInScope(event.payload, audience) }),
  },
  ReceiveCustomerData: {
    listedBy: 'POST /Warehouse/Customer/GetCustomers',
    scopedBy: ['customer'],
    // The customer list names only the caller's warehouses among those serving the customer.
    viewFor: (event, audience) => ({ ...event, payload: customerInScope(event.payload, audience) }),
  },
  ReceiveSkuData: { listedBy: 'POST /warehouse/Sku/GetAllSkus', scopedBy: ['customer'] },
  ReceiveInventoryData: { listedBy: 'POST /Warehouse/Inventory/GetStockOnHand', scopedBy: ['warehouse', 'customer'] },
  ReceiveAdjustmentData: { listedBy: 'POST /Warehouse/Adjustment/GetAdjustments', scopedBy: ['warehouse', 'customer'] },
  ReceiveCycleCountData: { listedBy: 'POST /Warehouse/CycleCount/GetCycleCounts', scopedBy: ['warehouse', 'customer'] },
  ReceiveReplenishmentData: { listedBy: 'POST /Warehouse/Replenishment/GetReplenishmentTasks', scopedBy: ['warehouse', 'customer'] },
  ReceiveReceivingData: { listedBy: 'POST /Warehouse/Receiving/GetReceivingOrders', scopedBy: ['warehouse', 'customer'] },
  ReceiveOrderData: { listedBy: 'POST /Warehouse/Order/GetOrders', scopedBy: ['warehouse', 'customer'] },
  ReceiveFreightData: { listedBy: 'POST /Freight/FreightShipment/GetFreightShipments', scopedBy: ['warehouse', 'customer'] },
  ReceiveShipmentData: { listedBy: 'POST /Warehouse/Shipping/GetShipments', scopedBy: ['warehouse', 'customer'] },
  // Waves and jobs are the warehouse's (a wave holds several clients' orders): the floor's staff of that warehouse hear them.
  ReceiveWaveData: { listedBy: 'POST /Warehouse/PickJob/GetJobs', scopedBy: ['warehouse'] },
  ReceiveKitData: { listedBy: 'POST /Warehouse/Kit/GetWorkOrders', scopedBy: ['warehouse', 'customer'] },
  ReceiveRmaData: { listedBy: 'POST /Warehouse/RMA/GetRmas', scopedBy: ['warehouse', 'customer'] },
  ReceiveTicketData: { listedBy: 'POST /ServiceManagement/HelpDesk/GetTickets', scopedBy: ['warehouse', 'customer'] },
  ReceivePalletData: { listedBy: 'POST /Warehouse/Pallet/GetPallets', scopedBy: ['warehouse'], staffView: true },
  // A client account's location list holds only the locations its stock is in, with only its stock counted.
  ReceiveLocationData: { listedBy: 'POST /warehouse/Location/GetLocations', scopedBy: ['warehouse'], staffView: true },
  // A job's progress is its owner's alone, while the job's warehouse and client are still in their scope.
  ReceiveJobData: {
    listedBy: 'GET /Common/Job/GetJob',
    scopedBy: (event) => {
      const job = event.payload.payload;
      return { ...(job.warehouseId != null ? { warehouseId: job.warehouseId } : {}), ...(job.customerId != null ? { customerId: job.customerId } : {}) };
    },
    ownerOf: (payload) => payload.payload.ownerUserId,
  },
};

/** A user record's assignments (warehouse and client ids) held to one caller's scope, as the user list answers them. */
function userInScope(user: UserPayload, audience: Audience): UserPayload {
  const { scope } = audience;
  return {
    ...user,
    warehouses: user.warehouses.filter((id) => scope.canSeeWarehouse(id)),
    customers: user.customers.filter((id) => scope.canSeeCustomer(id)),
  };
}

/** A customer record's serving warehouses held to one caller's scope, as the customer list answers them. */
function customerInScope(customer: unknown, audience: Audience): unknown {
  const warehouses = (customer as { warehouses?: unknown } | null)?.warehouses;
  if (!Array.isArray(warehouses)) return customer;
  return { ...(customer as object), warehouses: warehouses.filter((w: { warehouseid?: number }) => typeof w.warehouseid === 'number' && audience.scope.canSeeWarehouse(w.warehouseid)) };
}

/** An event's audience with its list route's policy in hand. */
export interface ResolvedAudience {
  mayList: (audience: Audience) => boolean;
  tenancy: (event: Pick<DomainEvent, 'payload' | 'warehouseId' | 'customerId'>) => Tenancy;
  viewFor?: (payload: unknown, audience: Audience) => unknown;
  staffView: boolean;
  ownerOf?: (payload: unknown) => number | null;
}
export type HubAudiences = Record<HubEventName, ResolvedAudience>;

/**
 * Binds each event to its list route's policy. `policyGate` answers, for 'METHOD /path', whether that route's
 * policy lets a principal in, or undefined when there is no such route (then the app does not start).
 */
export function resolveAudiences(policyGate: (listedBy: string) => ((audience: Audience) => boolean) | undefined): HubAudiences {
  const resolved = {} as HubAudiences;
  for (const [target, declared] of Object.entries(EVENT_AUDIENCES) as [HubEventName, EventAudience<HubEventName>][]) {
    const mayList = policyGate(declared.listedBy);
    if (!mayList) throw new Error(`Hub event ${target} names its list route ${declared.listedBy}, which is not registered`);
    resolved[target] = {
      mayList,
      tenancy: tenancyOf(declared.scopedBy as EventAudience<HubEventName>['scopedBy']),
      viewFor: declared.viewFor as ResolvedAudience['viewFor'],
      staffView: declared.staffView === true,
      ownerOf: declared.ownerOf as ResolvedAudience['ownerOf'],
    };
  }
  return resolved;
}

/** The record's place as the list's `Scope.where` columns see it: only the columns it filters by count. */
function tenancyOf(scopedBy: EventAudience<HubEventName>['scopedBy']): ResolvedAudience['tenancy'] {
  if (typeof scopedBy === 'function') return scopedBy;
  const byWarehouse = scopedBy.includes('warehouse');
  const byCustomer = scopedBy.includes('customer');
  return (e) => ({
    ...(byWarehouse ? { warehouseId: e.warehouseId ?? null } : {}),
    ...(byCustomer ? { customerId: e.customerId ?? null } : {}),
  });
}
