import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection, type ILogger } from '@microsoft/signalr';
import type { HubEventName } from '@bolx/contracts';
import { HUB_KEEP_ALIVE_MS, HUB_RECONNECT_DELAYS_MS, HUB_SERVER_TIMEOUT_MS, HUB_URL } from './hub-constants';
import type { HubEventBus } from './hub-events';
import type { HubStatus } from './hub-slice';

export interface HubClientDeps {
  /** The current access token, refreshed when it is about to expire; read on every (re)connect. */
  accessToken(): Promise<string> | string;
  onStatus(status: HubStatus, error?: string): void;
  bus: HubEventBus;
  url?: string;
  delays?: readonly number[];
  logger?: ILogger | LogLevel;
  /** Builds the connection; tests pass a fake. */
  build?: (options: BuildOptions) => HubConnection;
  sleep?: (ms: number) => Promise<void>;
}

export interface BuildOptions {
  url: string;
  accessTokenFactory: () => Promise<string> | string;
  delays: readonly number[];
  logger: ILogger | LogLevel;
}

export interface HubClient {
  /** Connects, retrying a failed first connection at the reconnect delays; failures are only logged. */
  start(): Promise<void>;
  /** Starts again after the automatic reconnect gave up (the status tag's click, the browser coming online). */
  reconnect(): Promise<void>;
  stop(): Promise<void>;
}

/** The official client, as DESIGN.md (Real-time) and spec section 9 set it up. */
export function buildConnection({ url, accessTokenFactory, delays, logger }: BuildOptions): HubConnection {
  return new HubConnectionBuilder()
    .withUrl(url, { skipNegotiation: true, transport: HttpTransportType.WebSockets, accessTokenFactory })
    .withAutomaticReconnect([...delays])
    .withServerTimeout(HUB_SERVER_TIMEOUT_MS)
    .withKeepAliveInterval(HUB_KEEP_ALIVE_MS)
    .configureLogging(logger)
    .build();
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : error ? String(error) : undefined);

/** One hub connection: its status goes to `onStatus`, its events to the bus. */
export function createHubClient(deps: HubClientDeps): HubClient {
  const delays = deps.delays ?? HUB_RECONNECT_DELAYS_MS;
  const sleep = deps.sleep ?? wait;
  const connection = (deps.build ?? buildConnection)({
    url: deps.url ?? HUB_URL,
    accessTokenFactory: () => deps.accessToken(),
    delays,
    logger: deps.logger ?? LogLevel.Warning,
  });
  let stopped = false;
  let starting: Promise<void> | null = null;
  let connectedBefore = false;
  // Each state once: the connection's own callbacks and ours may report the same change.
  let last: HubStatus | null = null;
  const setStatus = (status: HubStatus, error?: string) => {
    if (status === last && !error) return;
    last = status;
    deps.onStatus(status, error);
  };
  const report = (error?: unknown) => setStatus(connection.state as HubStatus, messageOf(error));

  // A hub method per event name anyone listens to, now or later.
  const registered = new Set<HubEventName>();
  const register = (name: HubEventName) => {
    if (registered.has(name)) return;
    registered.add(name);
    connection.on(name, (arg: unknown) => deps.bus.emit(name, arg));
  };
  deps.bus.names().forEach(register);
  const stopRegistering = deps.bus.onNewName(register);

  connection.onreconnecting((error) => report(error));
  connection.onreconnected(() => {
    report();
    deps.bus.resync(); // events sent while the connection was down are lost: lists fetch again
  });
  connection.onclose((error) => {
    if (error && !stopped) console.warn('[hub] connection closed', error.message);
    report(error);
  });

  async function connect(): Promise<void> {
    for (let attempt = 0; !stopped; attempt++) {
      setStatus('Connecting');
      try {
        await connection.start();
        report();
        // Only the tab's very first connection has missed nothing; after failures or a give-up, lists catch up.
        if (attempt > 0 || connectedBefore) deps.bus.resync();
        connectedBefore = true;
        return;
      } catch (error) {
        if (stopped) return;
        // Spec section 8: a real-time connection failure is only logged.
        console.warn('[hub] could not connect', messageOf(error));
        const delay = delays[attempt];
        if (delay === undefined) {
          setStatus('Disconnected', messageOf(error));
          return;
        }
        await sleep(delay);
      }
    }
  }

  const startOnce = () => {
    starting ??= connect().finally(() => {
      starting = null;
    });
    return starting;
  };

  return {
    start: startOnce,
    async reconnect() {
      if (stopped || connection.state !== 'Disconnected') return;
      await startOnce();
    },
    async stop() {
      stopped = true;
      stopRegistering();
      if (connection.state !== 'Disconnected') setStatus('Disconnecting');
      try {
        await connection.stop();
      } catch (error) {
        console.warn('[hub] stop failed', messageOf(error));
      }
      setStatus('Disconnected');
    },
  };
}
