import type { HubEventName } from '@bolx/contracts';
import type { DomainEvent } from '../events.js';
import { hasModule, type Principal } from '../principal.js';

/** Who is on a connection: its user's principal, loaded at connect and kept fresh. */
export type Audience = Principal;

type RoutedEvent = Pick<DomainEvent, 'target' | 'payload' | 'warehouseId' | 'customerId'>;

/** Events that only some users may see whatever their tenancy: hub method → who. */
const AUDIENCE_RULES: Partial<Record<HubEventName, (a: Audience) => boolean>> = {
  // Users and their assignments are administration data: for those who hold the User module.
  ReceiveUserData: (a) => hasModule(a, 'User', 'read'),
  // The warehouse list is a staff screen; a client account has no use for it.
  ReceiveWareHousedata: (a) => a.role !== 'Client',
  // Locations are the warehouse's layout; a client account's location view shows only where its stock is.
  ReceiveLocationData: (a) => a.role !== 'Client',
};

/**
 * A user's own record: its change (new warehouses or customers) reaches that user's connections whatever their
 * role, so their header filters follow it. It is their own data, so no tenancy rule holds it back.
 */
function isAboutSelf(audience: Audience, event: RoutedEvent): boolean {
  if (event.target !== 'ReceiveUserData') return false;
  const user = (event.payload as { payload?: { userId?: unknown } } | null)?.payload;
  return user?.userId === audience.userId;
}

/**
 * Whether a connection may receive an event. Tenancy first: the event's warehouse and customer must both be in
 * the user's scope (null means the event is not bound to one). A Client account receives only events of its own
 * customer, or warehouse events of a warehouse that serves it, never an unbound one. Then the per-event rule.
 * A change of the user's own record always reaches them.
 */
export function mayReceive(audience: Audience, event: RoutedEvent): boolean {
  if (isAboutSelf(audience, event)) return true;
  const warehouseId = event.warehouseId ?? null;
  const customerId = event.customerId ?? null;
  if (warehouseId !== null && !audience.scope.canSeeWarehouse(warehouseId)) return false;
  if (customerId !== null && !audience.scope.canSeeCustomer(customerId)) return false;
  if (audience.role === 'Client') {
    if (audience.customerId === null) return false;
    if (customerId !== null ? customerId !== audience.customerId : warehouseId === null) return false;
  }
  return AUDIENCE_RULES[event.target]?.(audience) ?? true;
}

/** The groups a connection joins: one per warehouse and customer in scope, or `wh:all` / `cu:all`. */
export function groupsOf(audience: Audience): string[] {
  const { warehouses, customers } = audience.scope;
  return [
    ...(warehouses === 'all' ? ['wh:all'] : warehouses.map((id) => `wh:${id}`)),
    ...(customers === 'all' ? ['cu:all'] : customers.map((id) => `cu:${id}`)),
  ];
}

/**
 * The groups whose members may receive an event (the candidates; `mayReceive` decides). An event bound to a
 * warehouse goes to that warehouse's group; one bound only to a customer to that customer's group; an unbound
 * event to everyone (null).
 */
export function candidateGroups(event: RoutedEvent): string[] | null {
  if (event.warehouseId != null) return [`wh:${event.warehouseId}`, 'wh:all'];
  if (event.customerId != null) return [`cu:${event.customerId}`, 'cu:all'];
  return null;
}

/**
 * Events that may change who sees what (a user's assignments, a new warehouse or customer assigned to its
 * creator): before routing one, the hub reloads its connections' principals so the change applies at once.
 */
export function changesScope(event: Pick<DomainEvent, 'target' | 'payload'>): boolean {
  const subEvent = (event.payload as { subEvent?: unknown } | null)?.subEvent;
  return event.target === 'ReceiveUserData'
    || (event.target === 'ReceiveWareHousedata' && subEvent === 'AddWarehouse')
    || (event.target === 'ReceiveCustomerData' && subEvent === 'AddCustomer');
}
