import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { DeliveredEvent } from '../events.js';
import type { Principal } from '../principal.js';
import { HubConnection, HubConnections, type CloseReason } from './connections.js';
import {
  checkHandshake, completionFrame, HANDSHAKE_OK, handshakeError, invocationFrame, isInvocation, MessageType, parseMessage,
  PING_FRAME, ProtocolError, type HubMessage, type InvocationMessage,
} from './protocol.js';
import { changesScope } from './routing.js';
import type { HubAudiences } from './event-audiences.js';

/** The hub's clocks (spec section 9: keep-alive 15 s, server timeout 30 s). Tests shorten them. */
export interface HubTiming {
  /** A ping goes out when nothing else was sent for this long. */
  keepAliveMs: number;
  /** A client silent for this long is gone (the official client pings every 15 s). */
  clientTimeoutMs: number;
  /** A socket that has not completed the handshake by then is closed. */
  handshakeTimeoutMs: number;
  /** How often each session is re-checked (a revoked session or disabled user ends its connections). */
  sessionCheckMs: number;
  /** The sweep that runs the clocks above. */
  tickMs: number;
}

export const DEFAULT_HUB_TIMING: HubTiming = {
  keepAliveMs: 15_000, clientTimeoutMs: 30_000, handshakeTimeoutMs: 15_000, sessionCheckMs: 10_000, tickMs: 1_000,
};

export interface HubDeps {
  /** Each event's audience: the policy and scope of the route that lists its record (event-audiences.ts). */
  audiences: HubAudiences;
  /** The principal behind a token now, or null when its session was revoked or its user disabled. */
  resolvePrincipal(token: string): Promise<Principal | null>;
  log: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
  metrics?: {
    sent(kind: 'event' | 'ping' | 'completion', bytes: number): void;
    closed(reason: CloseReason): void;
  };
}

type HubMethod = (conn: HubConnection, args: unknown[]) => unknown;

/** What a client may invoke. Method names are matched case-insensitively, as SignalR servers do. */
const METHODS: Record<string, HubMethod> = {
  ping: () => 'pong',
  getconnectioninfo: (conn) => ({
    connectionId: conn.id, userId: conn.principal.userId, username: conn.principal.username, role: conn.principal.role, groups: conn.groups,
  }),
};

/** Session checks run this many principal lookups at a time, so a sweep never crowds out API requests. */
const CHECK_CONCURRENCY = 4;

const SESSION_ENDED = 'Your session has ended. Please sign in again.';
const TOKEN_EXPIRED = 'The access token has expired.';

/**
 * The real-time hub: accepted sockets speak the SignalR JSON protocol; committed domain events go to the
 * connections allowed to see them; each connection's session is re-checked so a revoked one ends.
 */
export class Hub {
  readonly connections = new HubConnections();
  private timing: HubTiming = DEFAULT_HUB_TIMING;
  private timer: NodeJS.Timeout | undefined;
  private deliveries: Promise<void> = Promise.resolve();
  private readonly checks = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(private readonly deps: HubDeps) {
    this.configure({});
  }

  get accepting(): boolean {
    return !this.stopping;
  }

  /** Changes the clocks (tests use short ones) and restarts the sweep. */
  configure(timing: Partial<HubTiming>): void {
    this.timing = { ...this.timing, ...timing };
    clearInterval(this.timer);
    if (this.stopping) return;
    this.timer = setInterval(() => this.sweep(), this.timing.tickMs);
    this.timer.unref();
  }

  /** Takes over an upgraded socket whose token resolved to `principal`. */
  accept(socket: WebSocket, token: string, tokenExpiresAt: number, principal: Principal): HubConnection {
    const conn = new HubConnection(randomUUID(), socket, token, tokenExpiresAt, principal);
    this.connections.add(conn);
    // Text frames as the JSON protocol sends them; a binary frame is read as UTF-8 text all the same.
    socket.on('message', (data) => this.receive(conn, Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8')));
    socket.on('close', () => {
      if (!conn.closed) this.deps.metrics?.closed('client');
      conn.closed = true;
      this.connections.remove(conn);
    });
    socket.on('error', (err) => this.deps.log.debug({ err, connectionId: conn.id }, 'hub socket error'));
    return conn;
  }

  /** Queues a committed event for delivery; events go out in commit order. */
  publish(event: DeliveredEvent): void {
    this.deliveries = this.deliveries.then(() => this.deliver(event)).catch((err) => {
      this.deps.log.warn({ err, eventId: event.id }, 'hub event delivery failed');
    });
  }

  /** Waits for events queued so far to be sent (tests, shutdown). */
  flush(): Promise<void> {
    return this.deliveries;
  }

  /** Shutdown: close messages that invite a reconnect (to another node, or this one restarted), then the sockets. */
  async stop(graceMs = 1000): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    const open = [...this.connections];
    const gone = open.map((c) => new Promise<void>((resolve) => {
      if (c.socket.readyState === c.socket.CLOSED) resolve();
      else c.socket.once('close', () => resolve());
    }));
    for (const c of open) this.end(c, 'shutdown', 'Server is shutting down.', true);
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all(gone), timeout]);
    for (const c of open) c.socket.terminate();
  }

  private end(conn: HubConnection, reason: CloseReason, error: string | undefined, allowReconnect: boolean): void {
    if (conn.closed) return;
    this.deps.metrics?.closed(reason);
    conn.close(error, allowReconnect);
    this.connections.remove(conn);
  }

  private send(conn: HubConnection, kind: 'event' | 'ping' | 'completion', data: string | Buffer): void {
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (conn.send(data)) this.deps.metrics?.sent(kind, bytes);
    else if (!conn.closed && conn.socket.readyState === conn.socket.OPEN) this.end(conn, 'slow', 'The client is not keeping up.', true);
  }

  private async deliver(event: DeliveredEvent): Promise<void> {
    if (changesScope(event)) await this.checkSessions((c) => c.principal.scope.warehouses !== 'all' || c.principal.scope.customers !== 'all');
    const recipients = this.connections.recipients(event, this.deps.audiences);
    if (recipients.length === 0) return;
    const viewFor = this.deps.audiences[event.target].viewFor;
    if (!viewFor) {
      // Encoded once, sent as the same text to every recipient.
      const data = Buffer.from(invocationFrame(event.target, event.payload));
      for (const conn of recipients) this.send(conn, 'event', data);
      return;
    }
    // A record the list trims to each caller's scope: each recipient gets their view, encoded once per distinct view.
    const encoded = new Map<string, Buffer>();
    for (const conn of recipients) {
      const text = invocationFrame(event.target, viewFor(event.payload, conn.principal));
      let data = encoded.get(text);
      if (!data) encoded.set(text, (data = Buffer.from(text)));
      this.send(conn, 'event', data);
    }
  }

  private receive(conn: HubConnection, text: string): void {
    if (conn.closed) return;
    conn.lastReceivedAt = Date.now();
    let records: string[];
    try {
      records = conn.reader.push(text);
    } catch (err) {
      this.end(conn, 'protocol', (err as Error).message, false);
      return;
    }
    for (const record of records) {
      if (conn.closed) return;
      if (!conn.handshaken) this.handshake(conn, record);
      else this.handle(conn, record);
    }
  }

  private handshake(conn: HubConnection, record: string): void {
    const error = checkHandshake(record);
    if (error) {
      conn.send(handshakeError(error));
      this.end(conn, 'protocol', undefined, false);
      return;
    }
    conn.handshaken = true;
    conn.send(HANDSHAKE_OK);
  }

  private handle(conn: HubConnection, record: string): void {
    let message: HubMessage;
    try {
      message = parseMessage(record);
    } catch (err) {
      if (err instanceof ProtocolError) this.end(conn, 'protocol', err.message, false);
      else throw err;
      return;
    }
    switch (message.type) {
      case MessageType.Invocation:
        if (isInvocation(message)) void this.invoke(conn, message);
        else this.end(conn, 'protocol', 'Invalid invocation message', false);
        return;
      case MessageType.StreamInvocation:
        if (typeof message.invocationId === 'string') {
          this.send(conn, 'completion', completionFrame(message.invocationId, { error: 'Streaming is not supported by this hub.' }));
        }
        return;
      case MessageType.Close:
        this.end(conn, 'client', undefined, false);
        return;
      default:
        // Pings only keep the connection alive; stream items, cancellations and client results have nothing to act on.
        return;
    }
  }

  /** Runs a client invocation after re-checking the session (hub activity is a moment to notice a revocation). */
  private async invoke(conn: HubConnection, message: InvocationMessage): Promise<void> {
    await this.checkSession(conn.sessionId, [conn]);
    if (conn.closed) return;
    const method = METHODS[message.target.toLowerCase()];
    const id = message.invocationId;
    if (!method) {
      if (id) this.send(conn, 'completion', completionFrame(id, { error: `Unknown hub method '${message.target}'` }));
      return;
    }
    let outcome: { result: unknown } | { error: string };
    try {
      outcome = { result: await method(conn, message.arguments) };
    } catch (err) {
      this.deps.log.warn({ err, method: message.target }, 'hub method failed');
      outcome = { error: `An error occurred invoking '${message.target}' on the server.` };
    }
    if (id) this.send(conn, 'completion', completionFrame(id, outcome));
  }

  /** The clocks: handshake and client timeouts, keep-alive pings, token expiry, due session checks. */
  private sweep(): void {
    const now = Date.now();
    const t = this.timing;
    for (const conn of this.connections) {
      if (!conn.handshaken && now - conn.openedAt >= t.handshakeTimeoutMs) this.end(conn, 'timeout', undefined, false);
      else if (now - conn.lastReceivedAt >= t.clientTimeoutMs) this.end(conn, 'timeout', 'Server timeout elapsed without receiving a message from the client.', true);
      // An expired token ends the connection but invites a reconnect: the client's token factory supplies a fresh one.
      else if (now >= conn.tokenExpiresAt) this.end(conn, 'expired', TOKEN_EXPIRED, true);
      else if (conn.handshaken && now - conn.lastSentAt >= t.keepAliveMs) this.send(conn, 'ping', PING_FRAME);
    }
    void this.checkSessions((c) => now - c.checkedAt >= t.sessionCheckMs);
  }

  /** Re-checks the sessions of the connections that match, one lookup per session, a few at a time. */
  private async checkSessions(filter: (c: HubConnection) => boolean): Promise<void> {
    const queue = [...this.connections.bySession(filter)];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await this.checkSession(next[0], next[1]);
    };
    await Promise.all(Array.from({ length: Math.min(CHECK_CONCURRENCY, queue.length) }, worker));
  }

  /** One session's check; a check already under way for it is joined rather than repeated. */
  private checkSession(sessionId: string, conns: HubConnection[]): Promise<void> {
    const running = this.checks.get(sessionId);
    if (running) return running;
    const check = this.recheck(conns).finally(() => this.checks.delete(sessionId));
    this.checks.set(sessionId, check);
    return check;
  }

  private async recheck(conns: HubConnection[]): Promise<void> {
    // The freshest token of the session speaks for all its connections.
    const token = conns.reduce((a, b) => (b.tokenExpiresAt > a.tokenExpiresAt ? b : a)).token;
    let principal: Principal | null;
    try {
      principal = await this.deps.resolvePrincipal(token);
    } catch (err) {
      this.deps.log.warn({ err }, 'hub session check failed; will retry');
      return;
    }
    const now = Date.now();
    for (const conn of conns) {
      if (conn.closed) continue;
      if (principal === null) {
        this.end(conn, now >= conn.tokenExpiresAt ? 'expired' : 'revoked', now >= conn.tokenExpiresAt ? TOKEN_EXPIRED : SESSION_ENDED, now >= conn.tokenExpiresAt);
      } else {
        conn.checkedAt = now;
        this.connections.updatePrincipal(conn, principal);
      }
    }
  }
}
