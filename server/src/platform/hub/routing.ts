import type { DomainEvent } from '../events.js';
import type { Audience, HubAudiences } from './event-audiences.js';

export type { Audience } from './event-audiences.js';

type RoutedEvent = Pick<DomainEvent, 'target' | 'payload' | 'warehouseId' | 'customerId'>;

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
 * Whether a connection may receive an event: exactly when the route that lists the event's record would show
 * that record to its user — the route's policy (roles, module) lets them in, and their scope holds the record
 * (`Scope.admits`, the twin of the lists' `Scope.where`). A change of the user's own record always reaches them.
 */
export function mayReceive(audience: Audience, event: RoutedEvent, audiences: HubAudiences): boolean {
  if (isAboutSelf(audience, event)) return true;
  const rule = audiences[event.target];
  if (!rule || !rule.mayList(audience)) return false;
  if (rule.ownerOf && rule.ownerOf(event.payload) !== audience.userId) return false;
  if (audience.role === 'Client' && (rule.staffView || audience.customerId === null)) return false;
  return audience.scope.admits(rule.tenancy(event));
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
