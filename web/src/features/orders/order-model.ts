import {
  CLIENT_CANCELLABLE_ORDER_STATUSES, ORDER_BATCH_MATCHING_MAX, STATUS_MACHINES, SHORT_REASONS, offeredActions, unitsOfPackage,
  type AllocationResult, type OrderBatchResult, type OrderFilters, type OrderLineInput, type OrderStatus, type ShortReason, type SkuPackage,
} from '@bolx/contracts';

/**
 * The order screens' rules as plain functions (unit-tested without React): which actions a user is offered on an
 * order, how a bulk action's answer reads, and how the order form's lines become the CreateOrder lines.
 */

/** The moves a person makes on orders, in the order the screens show them. */
export const ORDER_ACTIONS = ['allocate', 'unallocate', 'hold', 'releaseHold', 'cancel'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** Who is acting, as the order routes' policies see it. */
export interface OrderActor {
  /** Staff (never a Client account) with write on the Order Dashboard: every move. */
  staff: boolean;
  /** Write on the Order Dashboard in any role: create and cancel (a Client account its own, before release). */
  canWrite: boolean;
  isClient: boolean;
  /** Staff with write on the Kit Dashboard: may raise a kit build for an order's kit line. */
  buildsKits?: boolean;
}

/** Moves only the warehouse makes (the routes are staff-only). */
const STAFF_ONLY: ReadonlySet<OrderAction> = new Set(['allocate', 'unallocate', 'hold', 'releaseHold']);

/** Whether the status machine knows the action at all (allocate and unallocate arrive with the allocation service). */
export const machineHas = (action: OrderAction): boolean => Object.hasOwn(STATUS_MACHINES.SALES_ORDER.actions, action);

/** Whether this actor may ever make this move (whatever the order's status). */
export function mayMakeMove(action: OrderAction, who: OrderActor): boolean {
  if (!machineHas(action)) return false;
  return STAFF_ONLY.has(action) ? who.staff : who.staff || who.canWrite;
}

/** The moves offered on an order in this status: the status machine's, those the actor may make, in screen order. */
export function orderActions(status: OrderStatus, who: OrderActor): OrderAction[] {
  const offered = new Set<string>(offeredActions('SALES_ORDER', status));
  return ORDER_ACTIONS.filter((a) => offered.has(a) && mayMakeMove(a, who) && !(a === 'cancel' && who.isClient && !CLIENT_CANCELLABLE_ORDER_STATUSES.includes(status)));
}

/** Statuses in which an order still waits for stock, so building kits for it helps (not yet released to the floor). */
const WAITING_FOR_STOCK: ReadonlySet<OrderStatus> = new Set(['New', 'Partially Allocated', 'Backordered', 'On Hold']);

/**
 * Whether the drawer offers "Build kits" on a line: a kit SKU's line that holds fewer kits than it asks for, on an
 * order still waiting for stock, to staff who build kits (CreateWorkOrderForOrderLine's policy). The server works
 * out how many to build (beyond the built kits still free) and refuses when none are missing.
 */
export function offersKitBuild(status: OrderStatus, line: { isKit: boolean; quantity: number; allocatedQuantity: number }, who: OrderActor): boolean {
  return !!who.buildsKits && line.isKit && line.allocatedQuantity < line.quantity && WAITING_FOR_STOCK.has(status);
}

/** The floor's steps on one order, from its drawer, in the order an order goes through them. */
export const FLOOR_ORDER_ACTIONS = ['release', 'pick', 'pack', 'ship', 'packingSlip'] as const;
export type FloorOrderAction = (typeof FLOOR_ORDER_ACTIONS)[number];

/** The statuses each floor step is offered in (release follows the status machine; see floorOrderActions). */
const FLOOR_STEP_STATUSES: Record<Exclude<FloorOrderAction, 'release'>, readonly OrderStatus[]> = {
  pick: ['Released', 'Picking'],
  pack: ['Picked'],
  ship: ['Packed'],
  // From release on, the order has what a packing slip lists (printed ahead with the pick lists, or at packing).
  packingSlip: ['Released', 'Picking', 'Picked', 'Packed', 'Shipped'],
};

/** The floor routes' policies as they apply to the user (see useOrderFloorButtons). */
export interface FloorPermissions {
  /** Staff with write on Batch Allocation: CreateWave. */
  release: boolean;
  /** Staff with write on Batch Job: the pick job routes. */
  pick: boolean;
  /** Staff with write on Batch Job: the pack station and ship confirm. */
  packAndShip: boolean;
}

/**
 * The floor steps offered on an order, as its status and the floor routes' policies allow: Release (a single-order
 * discrete wave) where the status machine allows releasing, except a Backordered order, which has nothing to pick
 * (a Partially Allocated one is released when its client allows backorders: the server checks); Pick while it is
 * Released or Picking (its job); Pack once Picked; Ship once Packed; the packing slip from release on, to whoever
 * reads the order (a client account its own, as the route allows).
 */
export function floorOrderActions(status: OrderStatus, may: FloorPermissions): FloorOrderAction[] {
  const allowed: Record<FloorOrderAction, boolean> = {
    release: may.release && offeredActions('SALES_ORDER', status).includes('release') && status !== 'Backordered',
    pick: may.pick && FLOOR_STEP_STATUSES.pick.includes(status),
    pack: may.packAndShip && FLOOR_STEP_STATUSES.pack.includes(status),
    ship: may.packAndShip && FLOOR_STEP_STATUSES.ship.includes(status),
    packingSlip: FLOOR_STEP_STATUSES.packingSlip.includes(status),
  };
  return FLOOR_ORDER_ACTIONS.filter((a) => allowed[a]);
}

/** The selected orders a bulk move would act on (the others would only be refused). */
export function eligibleOrders<T extends { orderId: number; status: OrderStatus }>(rows: T[], action: OrderAction, who: OrderActor): T[] {
  return rows.filter((r) => orderActions(r.status, who).includes(action));
}

/** A bulk move on "all orders matching the filters": the list's filters (unset ones left out) and search, as the batch routes take them. */
export interface MatchingBatch { filters: OrderFilters; searchQuery: string }

export function matchingBatch(request: { filters: Record<string, unknown>; searchQuery: string }): MatchingBatch {
  const filters = Object.fromEntries(Object.entries(request.filters).filter(([, v]) => v !== undefined && v !== null && v !== '')) as OrderFilters;
  return { filters, searchQuery: request.searchQuery.trim() };
}

/** Whether the server would refuse a bulk move on this many matching orders (it takes at most ORDER_BATCH_MATCHING_MAX). */
export const tooManyMatching = (total: number): boolean => total > ORDER_BATCH_MATCHING_MAX;

/** A bulk action's answer as the screen shows it. */
export interface BatchSummary {
  done: number;
  refused: { soNumber: string; message: string }[];
  /** Allocation only: how the orders ended. */
  allocation?: { allocated: number; partiallyAllocated: number; backordered: number };
  /** Allocation only: short lines per reason, most first. */
  shortLines: { reason: ShortReason; count: number }[];
}

const isAllocation = (r: OrderBatchResult | AllocationResult): r is AllocationResult => 'summary' in r;

export function summarizeBatch(result: OrderBatchResult | AllocationResult): BatchSummary {
  const refused = result.refused.map((r) => ({ soNumber: r.soNumber ?? `#${r.orderId}`, message: r.message }));
  if (!isAllocation(result)) return { done: result.done.length, refused, shortLines: [] };
  const { allocated, partiallyAllocated, backordered, shortLinesByReason } = result.summary;
  const shortLines = SHORT_REASONS.map((reason) => ({ reason, count: shortLinesByReason[reason] ?? 0 }))
    .filter((s) => s.count > 0)
    .sort((a, b) => b.count - a.count);
  return { done: result.done.length, refused, allocation: { allocated, partiallyAllocated, backordered }, shortLines };
}

/** One line of the order form: a count of the chosen level (units, or a package level), and a lot when asked for. */
export interface OrderLineValues {
  skuId?: number;
  /** How many of the chosen level (units when no package level). */
  count?: number;
  packageId?: number;
  lot?: string;
  /** What the SKU dropdown said of the SKU (not sent). */
  skuCode?: string;
  lotTracked?: boolean;
  /** The units the chosen package level holds (set with the level; not sent). */
  unitsPerPackage?: number;
}

/** A SKU's package levels as the units rule takes them. */
const packageLevels = (packages: SkuPackage[]) =>
  packages.map((p) => ({ id: p.packageid, parentId: p.parentPackageId, quantity: p.quantity }));

/** The units one of a SKU's package levels holds (1: no level). */
export const unitsPer = (packages: SkuPackage[] | undefined, packageId: number | undefined): number =>
  packageId && packages ? unitsOfPackage(packageLevels(packages), packageId) : 1;

/**
 * The form's lines as CreateOrder takes them: quantity in the SKU's units (a count of cases × the units a case
 * holds, so it is always a whole number of packages), the lot only when one is asked for.
 */
export function toOrderLines(lines: OrderLineValues[]): OrderLineInput[] {
  return lines.map((l) => {
    const units = l.packageId ? Math.max(1, l.unitsPerPackage ?? 1) : 1;
    const lot = l.lot?.trim();
    return {
      skuId: l.skuId!,
      quantity: (l.count ?? 0) * units,
      ...(l.packageId ? { packageId: l.packageId } : {}),
      ...(lot ? { lot } : {}),
    };
  });
}

/** Why a line's lot is refused before sending (the server's rule: a lot only on a SKU that tracks lots), or undefined. */
export function lotProblem(line: OrderLineValues): 'lotNotTracked' | undefined {
  return line.lot?.trim() && line.lotTracked === false ? 'lotNotTracked' : undefined;
}

/** The lines that repeat an earlier line's SKU and lot (1-based line numbers of the earlier one), to merge before sending. */
export function repeatedLine(lines: OrderLineValues[], index: number): number | undefined {
  const me = lines[index];
  if (!me?.skuId) return undefined;
  const key = (l: OrderLineValues) => `${l.skuId}|${(l.lot ?? '').trim()}|${l.packageId ?? 0}`;
  const first = lines.findIndex((l) => l?.skuId && key(l) === key(me));
  return first >= 0 && first < index ? first + 1 : undefined;
}
