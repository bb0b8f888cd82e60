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

type Describer<K extends HubEventName> = (arg: HubEventMap[K]) => Omit<Described, 'target' | 'subEvent'>;

/**
 * How each hub event reads in the notifications dropdown (text id `hub.event.<subEvent>` with the record's name)
 * and which screen lists its record. An event missing here is not shown there.
 */
const DESCRIBERS: { [K in HubEventName]?: Describer<K> } = {
  ReceiveWareHousedata: (e) => ({ name: nameOf(e.payload, 'warehouseName'), path: '/Warehouse' }),
  ReceiveUserData: (e) => ({ name: nameOf(e.payload, 'username'), path: '/User' }),
  ReceiveCustomerData: (e) => ({ name: nameOf(e.payload, 'customerName'), path: '/Customer' }),
  ReceiveSkuData: (e) => ({ name: nameOf(e.payload, SKU_NAME_FIELD[e.subEvent] ?? 'skuCode', 'skuCode'), path: '/SKU' }),
  ReceiveInventoryData: (e) => ({ name: nameOf(e.payload, 'document'), path: null }),
  ReceiveAdjustmentData: (e) => ({ name: nameOf(e.payload, 'adjustmentId'), path: '/Adjustment' }),
  ReceiveCycleCountData: (e) => ({ name: nameOf(e.payload, 'cycleCountId'), path: '/CycleCount' }),
  ReceiveReceivingData: (e) => ({ name: nameOf(e.payload, 'roNumber', 'referenceNumber', 'receivingOrderId'), path: '/InBound' }),
};

/** The dropdown entry for an event, or null for an event the dropdown does not show or a malformed one. */
export function describeHubEvent(name: HubEventName, arg: unknown): Described | null {
  const describe = DESCRIBERS[name] as ((a: unknown) => Omit<Described, 'target' | 'subEvent'>) | undefined;
  const subEvent = (arg as { subEvent?: unknown } | null)?.subEvent;
  if (!describe || typeof subEvent !== 'string') return null;
  return { target: name, subEvent, ...describe(arg) };
}

/** Feeds every event the dropdown shows into the notifications slice; returns the unsubscribe. */
export function feedNotifications(bus: HubEventBus, dispatch: (action: ReturnType<typeof notificationReceived>) => unknown): () => void {
  const offs = (Object.keys(DESCRIBERS) as HubEventName[]).map((name) =>
    bus.on(name, (arg) => {
      const entry = describeHubEvent(name, arg);
      if (entry) dispatch(notificationReceived(entry));
    }),
  );
  return () => offs.forEach((off) => off());
}
