import type { HubEventMap, HubEventName } from '@bolx/contracts';
import type { HubEventBus } from './hub-events';
import { notificationReceived, type HubNotification } from './notifications-slice';

type Described = Pick<HubNotification, 'target' | 'subEvent' | 'name' | 'path'>;

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : null;
/** The first of `keys` the payload has a value for. */
const nameOf = (payload: unknown, ...keys: string[]) => {
  const p = payload as Record<string, unknown> | null;
  if (!p || typeof p !== 'object') return null;
  for (const key of keys) {
    const value = text(p[key]);
    if (value) return value;
  }
  return null;
};

/** The record name each SKU sub-event's payload carries. */
const SKU_NAME_FIELD: Partial<Record<HubEventMap['ReceiveSkuData']['subEvent'], string>> = {
  AddPackage: 'packageName', UpdatePackage: 'packageName', DeletePackage: 'packageName',
  AddAttribute: 'attributeName', UpdateAttribute: 'attributeName', DeleteAttribute: 'attributeName',
  AddBarcode: 'barcode', UpdateBarcode: 'barcode', DeleteBarcode: 'barcode',
  AddKitComponent: 'componentSkuCode', UpdateKitComponent: 'componentSkuCode', DeleteKitComponent: 'componentSkuCode',
};

/** Who is reading: the signed-in user's id, so a change of their own record reads as such. */
export interface Reader {
  userId: number | null;
}
/** A describer may give its own text id (`subEvent`) where the event's would mislead. */
type Description = Omit<Described, 'target' | 'subEvent'> & { subEvent?: string };
type Describer<K extends HubEventName> = (arg: HubEventMap[K], reader: Reader) => Description;

/** The screen where each kind of stock change is made and listed. */
const STOCK_PATH: Record<HubEventMap['ReceiveInventoryData']['subEvent'], string> = {
  Move: '/Move', MovePallet: '/MovePallet', Adjust: '/Adjustment', CycleCount: '/CycleCount', Replenish: '/ProductReplenishment',
  Receive: '/InBound', Putaway: '/InBound', Import: '/InventoryReports', Kit: '/KitDashboard', Pick: '/BatchJob', Pack: '/BatchJob', Ship: '/OrderDashboard',
};
/** A document known by its number only reads as "#12". */
const numbered = (payload: unknown, key: string) => {
  const id = nameOf(payload, key);
  return id ? `#${id}` : null;
};
/** A batch of locations: its code range and count, e.g. "A-01-01 – A-04-10 (40)". */
const batchName = (p: { firstCode?: string; lastCode?: string; count?: number }) =>
  p.firstCode ? `${p.firstCode}${p.lastCode && p.lastCode !== p.firstCode ? ` – ${p.lastCode}` : ''}${p.count ? ` (${p.count})` : ''}` : null;

/**
 * How each hub event reads in the notifications dropdown (text id `hub.event.<subEvent>` with the record's name)
 * and which screen lists its record. An event missing here is not shown there.
 */
const DESCRIBERS: { [K in HubEventName]?: Describer<K> } = {
  ReceiveWareHousedata: (e) => ({ name: nameOf(e.payload, 'warehouseName'), path: '/Warehouse' }),
  // The reader's own record: their warehouses or clients changed (they may not have the user screen).
  ReceiveUserData: (e, reader) =>
    reader.userId !== null && e.payload?.userId === reader.userId
      ? { subEvent: 'OwnAccessUpdated', name: null, path: null }
      : { name: nameOf(e.payload, 'username'), path: '/User' },
  ReceiveCustomerData: (e) => ({ name: nameOf(e.payload, 'customerName'), path: '/Customer' }),
  ReceiveSkuData: (e) => ({ name: nameOf(e.payload, SKU_NAME_FIELD[e.subEvent] ?? 'skuCode', 'skuCode'), path: '/SKU' }),
  ReceiveInventoryData: (e) => ({ name: nameOf(e.payload, 'document'), path: STOCK_PATH[e.subEvent] ?? null }),
  ReceiveAdjustmentData: (e) => ({ name: numbered(e.payload, 'adjustmentId'), path: '/Adjustment' }),
  ReceiveCycleCountData: (e) => ({ name: numbered(e.payload, 'cycleCountId'), path: '/CycleCount' }),
  ReceiveReplenishmentData: (e) => ({
    subEvent: e.subEvent === 'UpdateRule' ? 'UpdateReplenishmentRule' : e.subEvent === 'AddTasks' ? 'AddReplenishmentTasks' : 'UpdateReplenishmentTask',
    name: e.payload?.taskIds?.length ? String(e.payload.taskIds.length) : null,
    path: '/ProductReplenishment',
  }),
  ReceiveLocationData: (e) =>
    e.subEvent === 'AddLocations'
      ? { name: batchName(e.payload), path: '/Location' }
      : { name: nameOf(e.payload, 'locationCode'), path: e.payload?.category === 'other' ? '/OtherLocations' : '/Location' },
  ReceiveReceivingData: (e) => ({ name: nameOf(e.payload, 'roNumber', 'referenceNumber', 'receivingOrderId'), path: '/InBound' }),
  ReceiveKitData: (e) => ({ name: nameOf(e.payload, 'woNumber'), path: '/KitDashboard' }),
};

/** The dropdown entry for an event, or null for an event the dropdown does not show or a malformed one. */
export function describeHubEvent(name: HubEventName, arg: unknown, reader: Reader = { userId: null }): Described | null {
  const describe = DESCRIBERS[name] as ((a: unknown, r: Reader) => Description) | undefined;
  const subEvent = (arg as { subEvent?: unknown } | null)?.subEvent;
  if (!describe || typeof subEvent !== 'string') return null;
  return { target: name, subEvent, ...describe(arg, reader) };
}

/** Feeds every event the dropdown shows into the notifications slice; returns the unsubscribe. */
export function feedNotifications(
  bus: HubEventBus,
  dispatch: (action: ReturnType<typeof notificationReceived>) => unknown,
  reader: () => Reader = () => ({ userId: null }),
): () => void {
  const offs = (Object.keys(DESCRIBERS) as HubEventName[]).map((name) =>
    bus.on(name, (arg) => {
      const entry = describeHubEvent(name, arg, reader());
      if (entry) dispatch(notificationReceived(entry));
    }),
  );
  return () => offs.forEach((off) => off());
}
