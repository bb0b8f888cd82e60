import { describe, expect, it } from 'vitest';
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { buildConnection, createHubClient } from './hub-client';
import { HUB_RECONNECT_DELAYS_MS } from './hub-constants';
import { createHubEventBus } from './hub-events';
import type { HubStatus } from './hub-slice';

/** Enough of a HubConnection to drive the client through its states. */
class FakeConnection {
  state: HubStatus = 'Disconnected';
  failures: Error[] = [];
  starts = 0;
  private handlers = new Map<string, ((arg: unknown) => void)[]>();
  private reconnecting?: (e?: Error) => void;
  private reconnected?: (id?: string) => void;
  private closed?: (e?: Error) => void;
  on(name: string, handler: (arg: unknown) => void) {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
  }
  onreconnecting(cb: (e?: Error) => void) { this.reconnecting = cb; }
  onreconnected(cb: (id?: string) => void) { this.reconnected = cb; }
  onclose(cb: (e?: Error) => void) { this.closed = cb; }
  async start() {
    this.starts += 1;
    this.state = 'Connecting';
    const failure = this.failures.shift();
    if (failure) {
      this.state = 'Disconnected';
      throw failure;
    }
    this.state = 'Connected';
  }
  async stop() {
    this.state = 'Disconnecting';
    await Promise.resolve();
    this.state = 'Disconnected';
    this.closed?.();
  }
  // What the server and network do:
  send(name: string, arg: unknown) { for (const h of this.handlers.get(name) ?? []) h(arg); }
  lose() { this.state = 'Reconnecting'; this.reconnecting?.(new Error('WebSocket closed with status code: 1006')); }
  regain() { this.state = 'Connected'; this.reconnected?.('c2'); }
  giveUp() { this.state = 'Disconnected'; this.closed?.(new Error('gave up')); }
}

function setup() {
  const fake = new FakeConnection();
  const bus = createHubEventBus();
  const statuses: HubStatus[] = [];
  const sleeps: number[] = [];
  let resyncs = 0;
  bus.onResync(() => (resyncs += 1));
  const client = createHubClient({
    bus,
    accessToken: () => 'token',
    onStatus: (s) => statuses.push(s),
    build: () => fake as unknown as HubConnection,
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { fake, bus, client, statuses, sleeps, resyncs: () => resyncs };
}

describe('hub client', () => {
  it('connects, and forwards server events to the bus — for subscribers added before and after', async () => {
    const t = setup();
    const got: unknown[] = [];
    t.bus.on('ReceiveWareHousedata', (e) => got.push(['early', e.subEvent]));
    await t.client.start();
    expect(t.statuses).toEqual(['Connecting', 'Connected']);
    t.bus.on('ReceiveSkuData', (e) => got.push(['late', e.subEvent]));
    t.fake.send('ReceiveWareHousedata', { subEvent: 'AddWarehouse', payload: {} });
    t.fake.send('ReceiveSkuData', { subEvent: 'SkuAdd', payload: {} });
    expect(got).toEqual([['early', 'AddWarehouse'], ['late', 'SkuAdd']]);
    expect(t.resyncs()).toBe(0); // a first connection has missed nothing
  });

  it('shows Reconnecting while the connection is lost, then Connected, and asks lists to catch up', async () => {
    const t = setup();
    await t.client.start();
    t.fake.lose();
    t.fake.regain();
    expect(t.statuses).toEqual(['Connecting', 'Connected', 'Reconnecting', 'Connected']);
    expect(t.resyncs()).toBe(1);
  });

  it('ends Disconnected when the automatic reconnect gives up, and can be started again', async () => {
    const t = setup();
    await t.client.start();
    t.fake.lose();
    t.fake.giveUp();
    expect(t.statuses.at(-1)).toBe('Disconnected');
    await t.client.reconnect();
    expect(t.statuses.slice(-2)).toEqual(['Connecting', 'Connected']);
    expect(t.fake.starts).toBe(2);
    expect(t.resyncs()).toBe(1); // events were missed while it was down
  });

  it('retries a failed first connection at the spec delays, then stops: failures are only logged', async () => {
    const t = setup();
    t.fake.failures = Array.from({ length: 10 }, () => new Error('WebSocket failed to connect.'));
    await t.client.start();
    expect(t.sleeps).toEqual([...HUB_RECONNECT_DELAYS_MS]);
    expect(t.fake.starts).toBe(HUB_RECONNECT_DELAYS_MS.length + 1);
    expect(t.statuses.at(-1)).toBe('Disconnected');
  });

  it('catches lists up when a retried first connection succeeds', async () => {
    const t = setup();
    t.fake.failures = [new Error('refused')];
    await t.client.start();
    expect(t.statuses.at(-1)).toBe('Connected');
    expect(t.resyncs()).toBe(1);
  });

  it('stops: Disconnecting, then Disconnected, and no longer reconnects', async () => {
    const t = setup();
    await t.client.start();
    await t.client.stop();
    expect(t.statuses.slice(-2)).toEqual(['Disconnecting', 'Disconnected']);
    await t.client.reconnect();
    expect(t.fake.starts).toBe(1);
  });
});

describe('buildConnection', () => {
  it('sets up the official client as the spec says: no negotiation, WebSockets, the token factory, reconnect delays, timeouts', async () => {
    let tokenAsked = 0;
    const connection = buildConnection({
      url: 'http://localhost/hubs/wms',
      accessTokenFactory: () => {
        tokenAsked += 1;
        return 'abc';
      },
      delays: HUB_RECONNECT_DELAYS_MS,
      logger: 6, // LogLevel.None
    }) as unknown as {
      serverTimeoutInMilliseconds: number;
      keepAliveIntervalInMilliseconds: number;
      _reconnectPolicy: { nextRetryDelayInMilliseconds(c: { previousRetryCount: number }): number | null };
      connection: { _options: { skipNegotiation: boolean; transport: HttpTransportType; accessTokenFactory(): Promise<string> | string } };
    };
    expect(connection.serverTimeoutInMilliseconds).toBe(30_000);
    expect(connection.keepAliveIntervalInMilliseconds).toBe(15_000);
    const delays = [0, 1, 2, 3, 4].map((n) => connection._reconnectPolicy.nextRetryDelayInMilliseconds({ previousRetryCount: n }));
    expect(delays).toEqual([0, 2000, 10000, 30000, null]);
    expect(connection.connection._options.skipNegotiation).toBe(true);
    expect(connection.connection._options.transport).toBe(HttpTransportType.WebSockets);
    expect(await connection.connection._options.accessTokenFactory()).toBe('abc');
    expect(tokenAsked).toBe(1);
  });
});
