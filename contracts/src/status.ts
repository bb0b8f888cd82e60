import { ADJUSTMENT_STATUSES, CYCLE_COUNT_STATUSES, REPLENISHMENT_TASK_STATUSES } from './inventory-operations.js';
import { RO_STATUSES } from './receiving.js';
import { ORDER_STATUSES } from './orders.js';
import { WORK_ORDER_STATUSES } from './kits.js';
import { PICK_JOB_STATUSES, WAVE_STATUSES } from './floor.js';

// The later modules' statuses live here, not in their contracts files, so that the status tables (which the
// web's entry chunk loads) do not pull those modules' schemas into the sign-in bundle.
export const SHIPMENT_STATUSES = ['Open', 'Labelled', 'Shipped', 'Closed', 'Cancelled'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
export const INVOICE_STATUSES = ['Draft', 'Final', 'Discarded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const RMA_STATUSES = ['Authorised', 'In Transit', 'Received', 'Inspected', 'Closed', 'Expired', 'Cancelled'] as const;
export type RmaStatus = (typeof RMA_STATUSES)[number];
export const FREIGHT_STATUSES = ['Planned', 'Tendered', 'Booked', 'Picked Up', 'In Transit', 'Delivered', 'Cancelled'] as const;
export type FreightStatus = (typeof FREIGHT_STATUSES)[number];
export const TICKET_STATUSES = ['Open', 'In Progress', 'Waiting on Client', 'Resolved', 'Closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * Every document's statuses as data: per kind, each status with the statuses it may move to next, its tag colour
 * on the web, and the named user actions that move a document (action → the status it moves to). The server's
 * status machine refuses (409) any move not listed here, and the web offers only the moves listed here, so the
 * two never disagree. A new document kind (SO, WAVE, JOB, SHP, RMA, INV, TICKET) adds one entry and nothing else.
 */

/** antd tag colours (preset names and status colours). */
export type StatusColour =
  | 'default' | 'processing' | 'success' | 'warning' | 'error'
  | 'blue' | 'cyan' | 'gold' | 'green' | 'orange' | 'purple' | 'red' | 'magenta' | 'volcano' | 'geekblue' | 'lime';

export interface StatusMachineTable<S extends string, A extends string = string> {
  /** The statuses a document is created in. */
  initial: readonly S[];
  statuses: { readonly [K in S]: { colour: StatusColour; next: readonly S[] } };
  /** The user actions that move a document, by the status each moves it to. */
  actions: { readonly [K in A]: S };
  /**
   * The statuses an action is offered from, where fewer than every status the table lets into its target: releasing
   * a hold and unallocating both go to New, but from different statuses.
   */
  actionSources?: { readonly [K in A]?: readonly S[] };
}

const table = <S extends string, A extends string>(_statuses: readonly S[], t: StatusMachineTable<S, A>) => t;

export const STATUS_MACHINES = {
  RECEIVING_ORDER: table(RO_STATUSES, {
    initial: ['Open'],
    statuses: {
      Open: { colour: 'blue', next: ['Receiving', 'Cancelled'] },
      Receiving: { colour: 'processing', next: ['Received'] },
      Received: { colour: 'gold', next: ['Closed'] },
      Closed: { colour: 'success', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { finalize: 'Received', cancel: 'Cancelled' },
  }),
  CYCLE_COUNT: table(CYCLE_COUNT_STATUSES, {
    initial: ['Open'],
    statuses: {
      Open: { colour: 'blue', next: ['Recount', 'Counted', 'Cancelled'] },
      Recount: { colour: 'orange', next: ['Counted', 'Cancelled'] },
      Counted: { colour: 'purple', next: ['Approved', 'Cancelled'] },
      Approved: { colour: 'green', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { approve: 'Approved', cancel: 'Cancelled' },
  }),
  ADJUSTMENT: table(ADJUSTMENT_STATUSES, {
    // Within the customer's threshold an adjustment is posted at once; above it, it waits for a manager.
    initial: ['Posted', 'Pending'],
    statuses: {
      Posted: { colour: 'cyan', next: [] },
      Pending: { colour: 'orange', next: ['Approved', 'Rejected'] },
      Approved: { colour: 'green', next: [] },
      Rejected: { colour: 'red', next: [] },
    },
    actions: { approve: 'Approved', reject: 'Rejected' },
  }),
  REPLENISHMENT_TASK: table(REPLENISHMENT_TASK_STATUSES, {
    initial: ['Open'],
    statuses: {
      Open: { colour: 'blue', next: ['Completed', 'Cancelled'] },
      Completed: { colour: 'green', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { complete: 'Completed', cancel: 'Cancelled' },
  }),
  /**
   * Outbound orders. Allocation moves New to Allocated, Partially Allocated or Backordered (and between them as
   * stock arrives or is given back); unallocating goes back to New. On Hold is reached from any status before
   * picking starts; releasing the hold goes to New (the status before the hold is not kept: allocation recomputes
   * it from what the lines hold). Cancel is refused once picking has started.
   */
  SALES_ORDER: table(ORDER_STATUSES, {
    initial: ['New'],
    statuses: {
      New: { colour: 'blue', next: ['Allocated', 'Partially Allocated', 'Backordered', 'On Hold', 'Cancelled'] },
      Allocated: { colour: 'cyan', next: ['Released', 'Partially Allocated', 'New', 'On Hold', 'Cancelled'] },
      // Released from Partially Allocated or Backordered only for a customer that allows backorders (the service checks).
      'Partially Allocated': { colour: 'gold', next: ['Allocated', 'Backordered', 'Released', 'New', 'On Hold', 'Cancelled'] },
      Backordered: { colour: 'orange', next: ['Allocated', 'Partially Allocated', 'Released', 'New', 'On Hold', 'Cancelled'] },
      'On Hold': { colour: 'magenta', next: ['New', 'Cancelled'] },
      // Back from the floor (a wave or job cancelled): to what its lines hold, as allocation decides.
      Released: { colour: 'geekblue', next: ['Picking', 'Allocated', 'Partially Allocated', 'Backordered', 'On Hold', 'Cancelled'] },
      Picking: { colour: 'processing', next: ['Picked'] },
      // Back to Picking when a pick is undone (UndoPick) before the order is packed.
      Picked: { colour: 'purple', next: ['Packed', 'Picking'] },
      Packed: { colour: 'lime', next: ['Shipped'] },
      Shipped: { colour: 'success', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    // allocate may end in Allocated, Partially Allocated or Backordered (what the stock allows); 'Allocated' names it.
    actions: { allocate: 'Allocated', unallocate: 'New', hold: 'On Hold', releaseHold: 'New', cancel: 'Cancelled', release: 'Released' },
    actionSources: {
      allocate: ['New', 'Partially Allocated', 'Backordered'],
      unallocate: ['Allocated', 'Partially Allocated', 'Backordered'],
      releaseHold: ['On Hold'],
    },
  }),
  /** A wave of released orders: In Progress from its first pick, Done when every job is Done or Short; Cancelled gives its orders back (Allocated). */
  WAVE: table(WAVE_STATUSES, {
    initial: ['Open'],
    statuses: {
      Open: { colour: 'blue', next: ['In Progress', 'Done', 'Cancelled'] },
      'In Progress': { colour: 'processing', next: ['Done'] },
      Done: { colour: 'success', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { cancel: 'Cancelled' },
  }),
  /**
   * A pick job: assigned to a picker (or taken by the first), In Progress from its first scan, Done when every task
   * is picked, Short when it finished with short picks. Cancelled only before picking starts.
   */
  PICK_JOB: table(PICK_JOB_STATUSES, {
    initial: ['Open'],
    statuses: {
      Open: { colour: 'blue', next: ['Assigned', 'In Progress', 'Cancelled'] },
      Assigned: { colour: 'cyan', next: ['Open', 'Assigned', 'In Progress', 'Cancelled'] },
      'In Progress': { colour: 'processing', next: ['Done', 'Short'] },
      Short: { colour: 'orange', next: [] },
      Done: { colour: 'success', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { assign: 'Assigned', unassign: 'Open', cancel: 'Cancelled' },
  }),
  /** Kit work orders: open while their components are reserved; completing posts the build (or unbuild) to the ledger. */
  KIT_WORK_ORDER: table(WORK_ORDER_STATUSES, {
    initial: ['Open'],
    statuses: {
      Open: { colour: 'blue', next: ['Completed', 'Cancelled'] },
      Completed: { colour: 'green', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { complete: 'Completed', cancel: 'Cancelled' },
  }),
  /**
   * A parcel shipment: Open while rated, Labelled once its cartons have labels (voiding them goes back to Open),
   * Shipped with its order, Closed on the end-of-day manifest (locked). Cancelled before any label stands.
   */
  SHIPMENT: table(SHIPMENT_STATUSES, {
    initial: ['Open'],
    statuses: {
      Open: { colour: 'blue', next: ['Labelled', 'Cancelled'] },
      Labelled: { colour: 'cyan', next: ['Open', 'Shipped'] },
      Shipped: { colour: 'green', next: ['Closed'] },
      Closed: { colour: 'success', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { label: 'Labelled', voidLabel: 'Open', ship: 'Shipped', close: 'Closed', cancel: 'Cancelled' },
  }),
  /** Invoices and credit notes: a draft is reviewed, re-run and adjusted, then finalised (numbered, locked) or discarded. */
  INVOICE: table(INVOICE_STATUSES, {
    initial: ['Draft'],
    statuses: {
      Draft: { colour: 'gold', next: ['Final', 'Discarded'] },
      Final: { colour: 'success', next: [] },
      Discarded: { colour: 'default', next: [] },
    },
    actions: { finalize: 'Final', discard: 'Discarded' },
  }),
  /**
   * Return authorisations (issue 15): In Transit once a return label's tracking number is known; Received at the
   * first unit in (back to Received from Inspected when more arrive); Inspected when every unit in is inspected;
   * Closed when every unit has its disposition (or a clerk closes it with what came). Expired by the nightly job
   * past its date, Cancelled by hand — both only before anything arrived.
   */
  RMA: table(RMA_STATUSES, {
    initial: ['Authorised'],
    statuses: {
      Authorised: { colour: 'blue', next: ['In Transit', 'Received', 'Expired', 'Cancelled'] },
      'In Transit': { colour: 'cyan', next: ['Received', 'Expired', 'Cancelled'] },
      Received: { colour: 'processing', next: ['Inspected', 'Closed'] },
      Inspected: { colour: 'purple', next: ['Received', 'Closed'] },
      Closed: { colour: 'success', next: [] },
      Expired: { colour: 'default', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { cancel: 'Cancelled', close: 'Closed' },
  }),
  /**
   * LTL freight shipments: Planned (being put together) → Tendered (offered to the carrier) → Booked (accepted, a
   * PRO number) → Picked Up (left the dock) → In Transit → Delivered (with its proof of delivery). A tender may be
   * taken back to Planned; a shipment is cancelled only before it is picked up.
   */
  FREIGHT_SHIPMENT: table(FREIGHT_STATUSES, {
    initial: ['Planned'],
    statuses: {
      Planned: { colour: 'blue', next: ['Tendered', 'Cancelled'] },
      Tendered: { colour: 'cyan', next: ['Booked', 'Planned', 'Cancelled'] },
      Booked: { colour: 'geekblue', next: ['Picked Up', 'Cancelled'] },
      'Picked Up': { colour: 'purple', next: ['In Transit', 'Delivered'] },
      'In Transit': { colour: 'processing', next: ['Delivered'] },
      Delivered: { colour: 'success', next: [] },
      Cancelled: { colour: 'default', next: [] },
    },
    actions: { tender: 'Tendered', untender: 'Planned', book: 'Booked', pickUp: 'Picked Up', inTransit: 'In Transit', deliver: 'Delivered', cancel: 'Cancelled' },
  }),
  /**
   * Help desk tickets (issue 18): staff take an Open ticket (In Progress), ask the client (Waiting on Client — the
   * SLA clock stops), resolve it; the client or staff close it. A resolved ticket may be reopened; a closed one stays.
   */
  TICKET: table(TICKET_STATUSES, {
    initial: ['Open'],
    statuses: {
      Open: { colour: 'blue', next: ['In Progress', 'Waiting on Client', 'Resolved', 'Closed'] },
      'In Progress': { colour: 'processing', next: ['Waiting on Client', 'Resolved', 'Closed'] },
      'Waiting on Client': { colour: 'gold', next: ['In Progress', 'Resolved', 'Closed'] },
      Resolved: { colour: 'success', next: ['In Progress', 'Closed'] },
      Closed: { colour: 'default', next: [] },
    },
    actions: { start: 'In Progress', wait: 'Waiting on Client', resolve: 'Resolved', reopen: 'In Progress', close: 'Closed' },
    actionSources: { start: ['Open', 'Waiting on Client'], reopen: ['Resolved'] },
  }),
} as const;

export type DocumentKind = keyof typeof STATUS_MACHINES;
export const DOCUMENT_KINDS = Object.keys(STATUS_MACHINES) as DocumentKind[];
export type DocumentStatus<K extends DocumentKind> = keyof (typeof STATUS_MACHINES)[K]['statuses'] & string;
export type DocumentAction<K extends DocumentKind> = keyof (typeof STATUS_MACHINES)[K]['actions'] & string;

type AnyTable = StatusMachineTable<string, string>;
const tableOf = (kind: DocumentKind): AnyTable => STATUS_MACHINES[kind] as unknown as AnyTable;

/** The statuses a document of this kind in this status may move to (none for an unknown status). */
export function nextStatuses(kind: DocumentKind, status: string): readonly string[] {
  return Object.hasOwn(tableOf(kind).statuses, status) ? tableOf(kind).statuses[status].next : [];
}

/** Whether the table lets a document move from one status to another. */
export function mayTransition(kind: DocumentKind, from: string, to: string): boolean {
  return nextStatuses(kind, from).includes(to);
}

/** The statuses from which a document of this kind may move to `to`. */
export function sourcesOf(kind: DocumentKind, to: string): string[] {
  return Object.entries(tableOf(kind).statuses).filter(([, s]) => s.next.includes(to)).map(([name]) => name);
}

/** The tag colour of a status ('default' for one the table does not know). */
export function statusColour(kind: DocumentKind, status: string): StatusColour {
  return Object.hasOwn(tableOf(kind).statuses, status) ? tableOf(kind).statuses[status].colour : 'default';
}

/** The user actions offered on a document in this status: those whose target the table allows from it (and from which the action is offered). */
export function offeredActions<K extends DocumentKind>(kind: K, status: string): DocumentAction<K>[] {
  const next = nextStatuses(kind, status);
  const sources = tableOf(kind).actionSources ?? {};
  return Object.entries(tableOf(kind).actions)
    .filter(([action, to]) => next.includes(to) && (sources[action]?.includes(status) ?? true))
    .map(([action]) => action as DocumentAction<K>);
}
