import { describe, expect, it } from 'vitest';
import { HUB_STATUSES, hubReducer, hubReset, hubStatusChanged, initialHubState, selectHubStatus } from './hub-slice';

describe('hub connection state', () => {
  it('starts Disconnected and knows the five states of the spec', () => {
    expect(initialHubState().status).toBe('Disconnected');
    expect(HUB_STATUSES).toEqual(['Disconnected', 'Connecting', 'Connected', 'Reconnecting', 'Disconnecting']);
  });

  it('follows a connection through reconnecting and back', () => {
    let state = initialHubState();
    state = hubReducer(state, hubStatusChanged({ status: 'Connecting', at: 1 }));
    state = hubReducer(state, hubStatusChanged({ status: 'Connected', at: 2 }));
    expect(selectHubStatus({ hub: state })).toBe('Connected');
    state = hubReducer(state, hubStatusChanged({ status: 'Reconnecting', at: 3, error: 'WebSocket closed with status code: 1006' }));
    expect(state).toEqual({ status: 'Reconnecting', since: 3, lastError: 'WebSocket closed with status code: 1006' });
    state = hubReducer(state, hubStatusChanged({ status: 'Connected', at: 4 }));
    expect(state).toEqual({ status: 'Connected', since: 4, lastError: null });
  });

  it('keeps the time the status began when the same status is reported again', () => {
    let state = hubReducer(initialHubState(), hubStatusChanged({ status: 'Connecting', at: 10 }));
    state = hubReducer(state, hubStatusChanged({ status: 'Connecting', at: 20 }));
    expect(state.since).toBe(10);
  });

  it('keeps the last failure until a connection works, and forgets everything on reset', () => {
    let state = hubReducer(initialHubState(), hubStatusChanged({ status: 'Disconnected', at: 1, error: 'refused' }));
    state = hubReducer(state, hubStatusChanged({ status: 'Connecting', at: 2 }));
    expect(state.lastError).toBe('refused');
    expect(hubReducer(state, hubReset())).toEqual(initialHubState());
  });
});
