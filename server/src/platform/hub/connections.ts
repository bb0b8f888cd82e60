import type { WebSocket } from 'ws';
import type { Principal } from '../principal.js';
import { closeFrame, RecordReader } from './protocol.js';
import { candidateGroups, groupsOf, mayReceive } from './routing.js';
import type { DomainEvent } from '../events.js';
import type { HubAudiences } from './event-audiences.js';

/** Why a connection ended, as counted in the metrics. */
export type CloseReason = 'client' | 'revoked' | 'expired' | 'timeout' | 'protocol' | 'slow' | 'shutdown';

/** A client whose unsent data grows past this is not keeping up; it is dropped (and reconnects) rather than buffered. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** One hub connection: its socket, its user, and the clocks the keep-alive and session checks read. */
export class HubConnection {
  readonly reader = new RecordReader();
  readonly openedAt = Date.now();
  handshaken = false;
  closed = false;
  lastReceivedAt = Date.now();
  lastSentAt = Date.now();
  checkedAt = Date.now();
  groups: string[];

  constructor(
    readonly id: string,
    readonly socket: WebSocket,
    /** The access token the connection opened with; the session check re-reads the principal through it. */
    readonly token: string,
    /** When that token expires (ms since epoch). */
    readonly tokenExpiresAt: number,
    public principal: Principal,
  ) {
    this.groups = groupsOf(principal);
  }

  get sessionId(): string {
    return this.principal.sessionId;
  }

  /** Sends one or more encoded records; false when the socket is gone or the client has fallen too far behind. */
  send(data: string | Buffer): boolean {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return false;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) return false;
    this.socket.send(data, { binary: false }); // the JSON protocol is text, even when handed a pre-encoded Buffer
    this.lastSentAt = Date.now();
    return true;
  }

  /**
   * Ends the connection: a close message (with the reason for the client when there is one), then the WebSocket
   * closing handshake. `allowReconnect` tells the official client whether to run its reconnect policy.
   */
  close(error: string | undefined, allowReconnect: boolean): void {
    if (this.closed) return;
    if (this.handshaken) this.send(closeFrame(error, allowReconnect));
    this.closed = true;
    this.socket.close(1000);
  }
}

/** The open connections and the groups they are in, so an event is matched against its candidates only. */
export class HubConnections {
  private readonly all = new Set<HubConnection>();
  private readonly byGroup = new Map<string, Set<HubConnection>>();

  get size(): number {
    return this.all.size;
  }

  [Symbol.iterator](): IterableIterator<HubConnection> {
    return this.all.values();
  }

  add(conn: HubConnection): void {
    this.all.add(conn);
    this.join(conn);
  }

  remove(conn: HubConnection): void {
    if (!this.all.delete(conn)) return;
    this.leave(conn);
  }

  /** A reloaded principal: its scope may have changed, and with it the groups. */
  updatePrincipal(conn: HubConnection, principal: Principal): void {
    conn.principal = principal;
    const groups = groupsOf(principal);
    if (groups.length === conn.groups.length && groups.every((g, i) => g === conn.groups[i])) return;
    if (this.all.has(conn)) this.leave(conn);
    conn.groups = groups;
    if (this.all.has(conn)) this.join(conn);
  }

  /** The handshaken connections that may receive an event. */
  recipients(event: Pick<DomainEvent, 'target' | 'payload' | 'warehouseId' | 'customerId'>, audiences: HubAudiences): HubConnection[] {
    const groups = candidateGroups(event);
    const candidates = new Set<HubConnection>();
    if (groups === null) {
      for (const c of this.all) candidates.add(c);
    } else {
      for (const g of groups) for (const c of this.byGroup.get(g) ?? []) candidates.add(c);
    }
    return [...candidates].filter((c) => c.handshaken && !c.closed && mayReceive(c.principal, event, audiences));
  }

  /** The open connections grouped by session, so one principal lookup serves every tab of a session. */
  bySession(filter: (c: HubConnection) => boolean = () => true): Map<string, HubConnection[]> {
    const sessions = new Map<string, HubConnection[]>();
    for (const c of this.all) {
      if (c.closed || !filter(c)) continue;
      const list = sessions.get(c.sessionId);
      if (list) list.push(c);
      else sessions.set(c.sessionId, [c]);
    }
    return sessions;
  }

  private join(conn: HubConnection): void {
    for (const g of conn.groups) {
      let members = this.byGroup.get(g);
      if (!members) this.byGroup.set(g, (members = new Set()));
      members.add(conn);
    }
  }

  private leave(conn: HubConnection): void {
    for (const g of conn.groups) {
      const members = this.byGroup.get(g);
      members?.delete(conn);
      if (members?.size === 0) this.byGroup.delete(g);
    }
  }
}
