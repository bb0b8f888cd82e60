import { describe, expect, it } from 'vitest';
import type { LoginResponse } from '@bolx/contracts';
import { sessionExpired, sessionRefreshed } from '../api/session-events';
import { loginActions } from '../../test/fake-actions';
import { authReducer, initialAuthState, loggedOut, serviceSelected, warehouseSelected, type AuthState } from './auth-slice';

const noneStored = {
  authtoken: null, refreshtoken: null, username: null, usertype: null, selectedWarehouse: null, selectedServiceManagement: null,
};
const login: LoginResponse = {
  accesstoken: 'a1', refreshtoken: 'r1', username: 'manager', usertype: 'Warehouse Manager', userid: 7, appName: 'Warehouse Management',
};
const creds = { username: 'manager', password: 'secret', rememberMe: true };

const run = (state: AuthState, ...actions: Parameters<typeof authReducer>[1][]) => actions.reduce(authReducer, state);

describe('auth slice', () => {
  it('counts as authenticated at start only when an auth token is stored', () => {
    expect(initialAuthState(noneStored).isAuthentication).toBe(false);
    const stored = initialAuthState({ ...noneStored, authtoken: 'a', refreshtoken: 'r', username: 'u', selectedWarehouse: '3', selectedServiceManagement: 'WMS' });
    expect(stored).toMatchObject({ isAuthentication: true, accessToken: 'a', refreshtoken: 'r', username: 'u', selectedWarehouse: '3', selectedServiceManagement: 'WMS' });
  });

  it('ignores stored selections without a token', () => {
    expect(initialAuthState({ ...noneStored, selectedWarehouse: '3' }).selectedWarehouse).toBeNull();
  });

  it('login pending sets loading and clears the previous error and result', () => {
    const failed = { ...initialAuthState(noneStored), error: { type: 'API_ERROR' as const, status: 401, message: 'x', details: 'x' } };
    const s = run(failed, loginActions(creds).pending());
    expect(s).toMatchObject({ loading: true, error: null, data: null, rememberMe: true });
  });

  it('login success stores tokens, username, usertype and app name and authenticates', () => {
    const s = run(initialAuthState(noneStored), loginActions(creds).pending(), loginActions(creds).fulfilled(login));
    expect(s).toMatchObject({
      isAuthentication: true, loading: false, data: login, accessToken: 'a1', refreshtoken: 'r1',
      username: 'manager', usertype: 'Warehouse Manager', selectedServiceManagement: 'Warehouse Management', selectedWarehouse: null,
    });
  });

  it('login with no default app leaves the service unselected', () => {
    const s = run(initialAuthState(noneStored), loginActions(creds).fulfilled({ ...login, appName: null }));
    expect(s.selectedServiceManagement).toBeNull();
  });

  it('login failure unauthenticates and stores the error', () => {
    const s = run(
      initialAuthState(noneStored),
      loginActions(creds).pending(),
      loginActions(creds).rejected({ status: 401, data: { status: 401, message: 'Invalid username or password' } }),
    );
    expect(s.isAuthentication).toBe(false);
    expect(s.loading).toBe(false);
    expect(s.error).toMatchObject({ type: 'API_ERROR', status: 401, details: 'Invalid username or password' });
  });

  it('a refresh replaces both tokens', () => {
    const s = run(initialAuthState(noneStored), loginActions(creds).fulfilled(login), sessionRefreshed({ accessToken: 'a2', refreshToken: 'r2' }));
    expect(s).toMatchObject({ accessToken: 'a2', refreshtoken: 'r2', isAuthentication: true });
  });

  it('selecting a warehouse and a service stores them', () => {
    const s = run(initialAuthState(noneStored), loginActions(creds).fulfilled(login), warehouseSelected(0), serviceSelected(null));
    expect(s.selectedWarehouse).toBe('0');
    expect(s.selectedServiceManagement).toBeNull();
  });

  it.each([['logout', loggedOut()], ['expired session', sessionExpired()]])('%s clears every session value', (_name, action) => {
    const signedIn = run(initialAuthState(noneStored), loginActions(creds).fulfilled(login), warehouseSelected(2));
    const s = run(signedIn, action);
    expect(s).toMatchObject({
      isAuthentication: false, accessToken: null, refreshtoken: null, username: null, usertype: null,
      selectedWarehouse: null, selectedServiceManagement: null, data: null,
    });
  });
});
