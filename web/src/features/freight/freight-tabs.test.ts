import { describe, expect, it } from 'vitest';
import { DASHBOARD_TAB, activate, closeTab, created, initialFreightTabs, openEdit, openNew, type FreightTabs } from './freight-tabs';

const labels = (s: FreightTabs) => s.tabs.map((t) => t.label);
const active = (s: FreightTabs) => s.tabs.find((t) => t.key === s.activeKey)!.label;

describe('freight tabs', () => {
  it('starts with the dashboard, which cannot be closed', () => {
    const s = initialFreightTabs();
    expect(labels(s)).toEqual(['Freight Shipment Dashboard']);
    expect(s.tabs[0].closable).toBe(false);
    expect(closeTab(s, DASHBOARD_TAB)).toBe(s);
    const withNew = openNew(s);
    expect(labels(closeTab(withNew, DASHBOARD_TAB))).toEqual(['Freight Shipment Dashboard', 'New Freight Shipment']);
  });

  it('"New Freight Shipment" opens a closable tab and replaces any existing new tab (with a fresh key), activating it', () => {
    const one = openNew(initialFreightTabs());
    expect(labels(one)).toEqual(['Freight Shipment Dashboard', 'New Freight Shipment']);
    expect(one.tabs[1].closable).toBe(true);
    expect(active(one)).toBe('New Freight Shipment');
    const two = openNew(activate(one, DASHBOARD_TAB));
    expect(labels(two)).toEqual(['Freight Shipment Dashboard', 'New Freight Shipment']);
    expect(two.tabs[1].key).not.toBe(one.tabs[1].key);
    expect(two.activeKey).toBe(two.tabs[1].key);
  });

  it('editing opens one tab "Freight Shipment: <number>", replacing any earlier edit tab in its place', () => {
    let s = openEdit(initialFreightTabs(), { shipmentId: 1, shipNumber: 'FRT-000001' });
    s = openNew(s);
    expect(labels(s)).toEqual(['Freight Shipment Dashboard', 'Freight Shipment: FRT-000001', 'New Freight Shipment']);
    s = openEdit(s, { shipmentId: 2, shipNumber: 'FRT-000002' });
    expect(labels(s)).toEqual(['Freight Shipment Dashboard', 'Freight Shipment: FRT-000002', 'New Freight Shipment']);
    expect(active(s)).toBe('Freight Shipment: FRT-000002');
    expect(s.tabs[1].closable).toBe(true);
    // The same shipment again: the tab is shown, not replaced.
    const again = openEdit(activate(s, DASHBOARD_TAB), { shipmentId: 2, shipNumber: 'FRT-000002' });
    expect(again.tabs[1].key).toBe(s.tabs[1].key);
    expect(active(again)).toBe('Freight Shipment: FRT-000002');
  });

  it('closing the active tab activates its neighbour; closing another keeps the active one', () => {
    let s = openNew(openEdit(initialFreightTabs(), { shipmentId: 1, shipNumber: 'FRT-000001' }));
    expect(active(s)).toBe('New Freight Shipment');
    const closedActive = closeTab(s, s.activeKey);
    expect(active(closedActive)).toBe('Freight Shipment: FRT-000001');
    s = activate(s, s.tabs[1].key);
    const closedOther = closeTab(s, s.tabs[2].key);
    expect(labels(closedOther)).toEqual(['Freight Shipment Dashboard', 'Freight Shipment: FRT-000001']);
    expect(active(closedOther)).toBe('Freight Shipment: FRT-000001');
    expect(active(closeTab(closedOther, closedOther.activeKey))).toBe('Freight Shipment Dashboard');
  });

  it('a saved new shipment closes its new tab and opens in the edit tab', () => {
    const s = openNew(initialFreightTabs());
    const after = created(s, s.tabs[1].key, { shipmentId: 9, shipNumber: 'FRT-000009' });
    expect(labels(after)).toEqual(['Freight Shipment Dashboard', 'Freight Shipment: FRT-000009']);
    expect(active(after)).toBe('Freight Shipment: FRT-000009');
  });
});
