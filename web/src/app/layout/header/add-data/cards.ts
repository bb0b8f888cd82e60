import { APPROVER_ROLES, STAFF_ROLES, type AccessNeed } from '@bolx/contracts';
import { staffWrite } from '../../../../lib/access';
import type { UploadKind } from '../../../../lib/state/uploads-slice';

export type CardKey = 'orders' | 'ro' | 'sku' | 'inventory' | 'locations' | 'pallets';

/**
 * The access policies of what each card's form calls, as the server declares them on those routes; a card is
 * offered when any of its needs is met.
 */
export const CARD_NEEDS: Record<CardKey, readonly AccessNeed[]> = {
  orders: [{ module: { key: 'OrderDashboard', permission: 'write' } }],
  ro: [staffWrite('InBound')],
  sku: [staffWrite('SKU')],
  inventory: [{ roles: APPROVER_ROLES, module: { key: 'Adjustment', permission: 'write' } }],
  // A file goes to UploadLocations, the fields alone to CreateLocation.
  locations: [staffWrite('LocationUpload'), staffWrite('CreateLocation')],
  pallets: [staffWrite('MovePallet')],
};

/** The sample templates' downloads (staff with read on the module). */
export const TEMPLATE_NEEDS = {
  orders: { module: { key: 'OrderDashboard', permission: 'write' } },
  ro: { roles: STAFF_ROLES, module: { key: 'InBound', permission: 'read' } },
  sku: { roles: STAFF_ROLES, module: { key: 'SKU', permission: 'read' } },
  inventory: { roles: STAFF_ROLES, module: { key: 'Adjustment', permission: 'read' } },
  locations: { roles: STAFF_ROLES, module: { key: 'LocationUpload', permission: 'read' } },
  pallets: { roles: STAFF_ROLES, module: { key: 'MovePallet', permission: 'read' } },
} as const satisfies Record<string, AccessNeed>;

/** Spec section 2, Add Data panel: the 2-column card grid, in the spec's order. */
export const CARDS: { key: CardKey; kind: UploadKind; mostUsed?: boolean }[] = [
  { key: 'orders', kind: 'ORD', mostUsed: true },
  { key: 'ro', kind: 'RO' },
  { key: 'sku', kind: 'SKU' },
  { key: 'inventory', kind: 'INV' },
  { key: 'locations', kind: 'LOC' },
  { key: 'pallets', kind: 'PLT' },
];

/** The cards this account may use, in the spec's order: an account that would be refused is not offered the form. */
export function offeredCards(may: (need: AccessNeed) => boolean): typeof CARDS {
  return CARDS.filter((c) => CARD_NEEDS[c.key].some(may));
}
