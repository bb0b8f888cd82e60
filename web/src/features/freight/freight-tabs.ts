/**
 * The /FreightShipment tab bar as a pure state (spec section 2, FreightShipment): the first tab, "Freight Shipment
 * Dashboard", cannot be closed; "New Freight Shipment" opens a closable tab and replaces any existing new tab;
 * editing opens one closable tab "Freight Shipment: " + the number, replacing any earlier edit tab; closing the
 * active tab activates its neighbour (the one before it, as antd's editable tabs do).
 */
export const DASHBOARD_TAB = 'dashboard';
export const DASHBOARD_LABEL = 'Freight Shipment Dashboard';
export const NEW_LABEL = 'New Freight Shipment';
export const EDIT_PREFIX = 'Freight Shipment: ';

export type FreightTab =
  | { key: typeof DASHBOARD_TAB; kind: 'dashboard'; label: string; closable: false }
  | { key: string; kind: 'new'; label: string; closable: true }
  | { key: string; kind: 'edit'; label: string; closable: true; shipmentId: number; shipNumber: string };

export interface FreightTabs {
  tabs: FreightTab[];
  activeKey: string;
  /** Counts the tabs opened, so a replacing tab gets a new key (its form starts afresh). */
  opened: number;
}

export const initialFreightTabs = (): FreightTabs => ({
  tabs: [{ key: DASHBOARD_TAB, kind: 'dashboard', label: DASHBOARD_LABEL, closable: false }],
  activeKey: DASHBOARD_TAB,
  opened: 0,
});

/** Puts `tab` where the tab of its kind was (replacing it), or at the end; activates it. */
function place(state: FreightTabs, tab: FreightTab): FreightTabs {
  const at = state.tabs.findIndex((t) => t.kind === tab.kind);
  const tabs = at < 0 ? [...state.tabs, tab] : state.tabs.map((t, i) => (i === at ? tab : t));
  return { tabs, activeKey: tab.key, opened: state.opened + 1 };
}

export function openNew(state: FreightTabs): FreightTabs {
  return place(state, { key: `new-${state.opened + 1}`, kind: 'new', label: NEW_LABEL, closable: true });
}

export function openEdit(state: FreightTabs, shipment: { shipmentId: number; shipNumber: string }): FreightTabs {
  const current = state.tabs.find((t) => t.kind === 'edit');
  // The same shipment already open: just show it.
  if (current?.kind === 'edit' && current.shipmentId === shipment.shipmentId) return { ...state, activeKey: current.key };
  return place(state, {
    key: `edit-${state.opened + 1}`, kind: 'edit', label: `${EDIT_PREFIX}${shipment.shipNumber}`, closable: true, ...shipment,
  });
}

export function closeTab(state: FreightTabs, key: string): FreightTabs {
  const at = state.tabs.findIndex((t) => t.key === key);
  if (at < 0 || !state.tabs[at].closable) return state;
  const tabs = state.tabs.filter((t) => t.key !== key);
  const activeKey = state.activeKey !== key ? state.activeKey : tabs[Math.max(0, at - 1)].key;
  return { ...state, tabs, activeKey };
}

export function activate(state: FreightTabs, key: string): FreightTabs {
  return state.tabs.some((t) => t.key === key) ? { ...state, activeKey: key } : state;
}

/** A new shipment saved: its new tab closes and the shipment opens in the edit tab. */
export function created(state: FreightTabs, newKey: string, shipment: { shipmentId: number; shipNumber: string }): FreightTabs {
  const at = state.tabs.findIndex((t) => t.key === newKey);
  const edited = openEdit(state, shipment);
  if (at < 0) return edited;
  const tabs = edited.tabs.filter((t) => t.key !== newKey);
  return { ...edited, tabs };
}

export type FreightTabAction =
  | { type: 'new' } | { type: 'edit'; shipmentId: number; shipNumber: string } | { type: 'close'; key: string } | { type: 'activate'; key: string }
  | { type: 'created'; newKey: string; shipmentId: number; shipNumber: string };

export function freightTabsReducer(state: FreightTabs, action: FreightTabAction): FreightTabs {
  switch (action.type) {
    case 'new': return openNew(state);
    case 'edit': return openEdit(state, action);
    case 'close': return closeTab(state, action.key);
    case 'activate': return activate(state, action.key);
    case 'created': return created(state, action.newKey, action);
  }
}
