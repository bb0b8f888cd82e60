import { describe, expect, it } from 'vitest';
import type { WarehouseClientResponse } from '@bolx/contracts';
import { setDefaultAppActions, warehouseClientActions } from '../../test/fake-actions';
import { loggedOut, warehouseCleared, warehouseSelected } from './auth-slice';
import {
  customerCleared, customerSelected, headerReducer, initialHeaderState, resetLinkFailed, resetLinkSent, RESET_LINK_TTL_MS,
  type HeaderState,
} from './header-slice';

const data: WarehouseClientResponse = {
  warehouseData: [
    { uniqueid: 1, warehouseId: 1, warehouseName: 'Newark', warehouseCode: 'NJ1', city: 'Newark', timeZone: 'America/New_York', capacity: 400, usedLocations: 372, totalLocations: 395, occupancy: 94.2 },
    { uniqueid: 2, warehouseId: 2, warehouseName: 'Dallas', warehouseCode: 'TX1', city: 'Dallas', timeZone: 'America/Chicago', capacity: 350, usedLocations: 263, totalLocations: 350, occupancy: 75.1 },
  ],
  customerData: [
    { customerId: 1, customerName: 'Acme', warehouseId: 1 },
    { customerId: 2, customerName: 'Blue Harbor', warehouseId: 1 },
    { customerId: 3, customerName: 'Cascade', warehouseId: 2 },
  ],
};
const run = (state: HeaderState, ...actions: Parameters<typeof headerReducer>[1][]) => actions.reduce(headerReducer, state);
const loaded = (stored: string | null) =>
  run(initialHeaderState(stored), warehouseClientActions().pending(), warehouseClientActions().fulfilled(data));

describe('header slice', () => {
  it('takes the warehouse default from storage', () => {
    expect(initialHeaderState('2').warehouseSelectedIDs).toBe(2);
    expect(initialHeaderState(null)).toMatchObject({ warehouseSelectedIDs: null, clientsSelectedIDs: 0, customerName: '' });
  });

  it('loading clears the previous result and error; success stores the data and sets the header-call flag', () => {
    const pending = run(loaded('1'), warehouseClientActions().pending());
    expect(pending).toMatchObject({ loading: true, data: null, error: null });
    const s = loaded('1');
    expect(s).toMatchObject({ loading: false, data, skipHeaderCall: true });
  });

  it('a live refresh keeps the lists on screen until the answer, then keeps a selection that is still valid', () => {
    const chosen = run(loaded('1'), customerSelected({ id: 2, name: 'Blue Harbor' }));
    const refreshing = run(chosen, warehouseClientActions().refetchPending());
    expect(refreshing).toMatchObject({ loading: true, data, clientsSelectedIDs: 2 });
    const renamed: WarehouseClientResponse = {
      warehouseData: data.warehouseData,
      customerData: [...data.customerData.map((c) => (c.customerId === 2 ? { ...c, customerName: 'Blue Harbor Ltd' } : c)), { customerId: 4, customerName: 'Delta', warehouseId: 1 }],
    };
    expect(run(refreshing, warehouseClientActions().fulfilled(renamed))).toMatchObject({ loading: false, data: renamed, clientsSelectedIDs: 2, customerName: 'Blue Harbor Ltd' });
  });

  it('a refresh that takes the selected customer away goes back to the rules: one left is auto-selected, several give ALL', () => {
    const chosen = run(loaded('1'), customerSelected({ id: 2, name: 'Blue Harbor' }));
    const oneLeft = { ...data, customerData: data.customerData.filter((c) => c.customerId !== 2) };
    expect(run(chosen, warehouseClientActions().refetchPending(), warehouseClientActions().fulfilled(oneLeft))).toMatchObject({ clientsSelectedIDs: 1, customerName: 'Acme' });
    const twoLeft = { ...data, customerData: [...oneLeft.customerData, { customerId: 5, customerName: 'Echo', warehouseId: 1 }] };
    expect(run(chosen, warehouseClientActions().refetchPending(), warehouseClientActions().fulfilled(twoLeft))).toMatchObject({ clientsSelectedIDs: 0, customerName: '' });
  });

  it('clearing the warehouse (no longer the user’s) widens the customers and keeps one still listed', () => {
    expect(run(loaded('2'), warehouseCleared())).toMatchObject({ warehouseSelectedIDs: null, clientsSelectedIDs: 3, customerName: 'Cascade' });
  });

  it('a failed load stores the error and clears the result', () => {
    const s = run(loaded('1'), warehouseClientActions().pending(), warehouseClientActions().rejected({ status: 500, data: { message: 'boom' } }));
    expect(s.data).toBeNull();
    expect(s.error).toMatchObject({ status: 500, details: 'boom' });
  });

  it('a warehouse with one customer auto-selects it', () => {
    expect(loaded('2')).toMatchObject({ clientsSelectedIDs: 3, customerName: 'Cascade' });
  });

  it('a warehouse with several customers selects ALL (0)', () => {
    expect(loaded('1')).toMatchObject({ clientsSelectedIDs: 0, customerName: '' });
  });

  it('choosing a customer stores its id and name; clearing goes back to ALL', () => {
    const chosen = run(loaded('1'), customerSelected({ id: 2, name: 'Blue Harbor' }));
    expect(chosen).toMatchObject({ clientsSelectedIDs: 2, customerName: 'Blue Harbor' });
    expect(run(chosen, customerCleared())).toMatchObject({ clientsSelectedIDs: 0, customerName: '' });
  });

  it('a warehouse change pushes the selection and narrows the customer to it', () => {
    const chosen = run(loaded('1'), customerSelected({ id: 2, name: 'Blue Harbor' }), warehouseSelected(2));
    expect(chosen).toMatchObject({ warehouseSelectedIDs: 2, clientsSelectedIDs: 3, customerName: 'Cascade' });
  });

  it('setting the default app turns the header-call flag off', () => {
    expect(run(loaded('1'), setDefaultAppActions(2).fulfilled({ message: 'ok' })).skipHeaderCall).toBe(false);
  });

  it('logout resets the header state', () => {
    expect(run(loaded('1'), loggedOut())).toEqual(initialHeaderState());
  });

  describe('forgot flow', () => {
    it('userId 0 sets the error and clears the id', () => {
      const before = run(initialHeaderState(), resetLinkSent({ userId: 5, message: 'sent', invalidMessage: 'Invalid Email/Username!', now: 0 }));
      const s = run(before, resetLinkSent({ userId: 0, message: 'sent', invalidMessage: 'Invalid Email/Username!', now: 0 }));
      expect(s).toMatchObject({ resetLinkError: 'Invalid Email/Username!', userId: null, resetLinkMessage: null, expiryTime: null });
    });
    it('otherwise stores the message, the userId and the expiry', () => {
      const s = run(initialHeaderState(), resetLinkSent({ userId: 5, message: 'sent', invalidMessage: 'x', now: 1000 }));
      expect(s).toMatchObject({ resetLinkError: null, resetLinkMessage: 'sent', userId: 5, expiryTime: 1000 + RESET_LINK_TTL_MS });
    });
    it('a failed call stores its error', () => {
      expect(run(initialHeaderState(), resetLinkFailed('No response from server')).resetLinkError).toBe('No response from server');
    });
  });
});
