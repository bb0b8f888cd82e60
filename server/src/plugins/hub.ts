import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { Counter, Gauge } from 'prom-client';
import { WebSocketServer } from 'ws';
import type { Services } from '../services.js';
import { Hub } from '../platform/hub/hub.js';
import type { Principal } from '../platform/principal.js';
import { resolveAudiences } from '../platform/hub/event-audiences.js';
import { admits } from './access.js';

export const HUB_PATH = '/hubs/wms';

declare module 'fastify' {
  interface FastifyInstance {
    hub: Hub;
  }
}

/**
 * The real-time hub at /hubs/wms (SignalR JSON protocol over WebSocket). The official client connects with
 * negotiation skipped, straight to `ws://host/hubs/wms`, its token in `?access_token=` (browsers) or an
 * Authorization header (Node). Committed events from the outbox — from every node on PostgreSQL — are
 * routed to the connections allowed to see them.
 */
export async function registerHub(app: FastifyInstance, services: Services): Promise<void> {
  const hub: Hub = new Hub({
    audiences: hubAudiences(app),
    resolvePrincipal: (token) => services.auth.principalFromToken(token),
    log: app.log,
    metrics: hubMetrics(services, () => hub.connections.size),
  });
  app.decorate('hub', hub);
  // The WebSocket handshake only; authentication and the HTTP answer to a refused upgrade are ours.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024, perMessageDeflate: false });
  const unsubscribe = services.events.subscribe((event) => hub.publish(event));

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!isHubPath(req.url)) {
      socket.destroy();
      return;
    }
    if (!hub.accepting) {
      refuse(socket, 503, 'Service Unavailable');
      return;
    }
    void authenticate(req, services).then((auth) => {
      if (auth === 'unavailable') return refuse(socket, 503, 'Service Unavailable');
      if (!auth) return refuse(socket, 401, 'Unauthorized');
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (!hub.accepting) ws.terminate();
        else hub.accept(ws, auth.token, auth.expiresAt, auth.principal);
      });
    });
  });

  // Before the HTTP server stops: end every hub socket, or server.close() would wait on them for ever.
  app.addHook('preClose', async () => {
    unsubscribe();
    await hub.stop();
    wss.close();
  });
}

/** Each hub event's audience, bound to the policy of its list route in this app's route table. */
export function hubAudiences(app: FastifyInstance) {
  return resolveAudiences((listedBy) => {
    const policy = listPolicy(app, listedBy);
    return policy && ((principal: Principal) => admits(policy, principal));
  });
}

/** The access policy of the route registered as 'METHOD /path', if there is one. */
export function listPolicy(app: FastifyInstance, listedBy: string) {
  const [method, url] = listedBy.split(' ');
  const route = app.routeTable.find((r) => r.url === url && ([] as string[]).concat(r.method as string | string[]).includes(method));
  return route?.config?.policy;
}

/** Case-insensitive, with or without a trailing slash, any query string. */
function isHubPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0].toLowerCase().replace(/\/+$/, '');
  return path === HUB_PATH;
}

/** The token from `Authorization: Bearer …` or, as browsers must send it, `?access_token=…`. */
export function tokenOf(req: Pick<IncomingMessage, 'headers' | 'url'>): string | null {
  const header = req.headers.authorization;
  if (typeof header === 'string' && /^bearer /i.test(header)) return header.slice(7).trim() || null;
  const query = new URL(req.url ?? '/', 'http://hub').searchParams.get('access_token');
  return query || null;
}

type Authenticated = { token: string; expiresAt: number; principal: Principal };

async function authenticate(req: IncomingMessage, services: Services): Promise<Authenticated | null | 'unavailable'> {
  const token = tokenOf(req);
  if (!token) return null;
  try {
    const principal = await services.auth.principalFromToken(token);
    if (!principal) return null;
    const exp = decodeJwt(token).exp;
    return { token, principal, expiresAt: exp ? exp * 1000 : Number.POSITIVE_INFINITY };
  } catch {
    return 'unavailable'; // the database did not answer: not the client's fault, so not a 401
  }
}

/** Answers a refused upgrade with a bare HTTP status, then drops the socket. */
function refuse(socket: Duplex, status: number, text: string): void {
  if (socket.destroyed) return;
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`);
}

/** The hub's figures on /metrics: open connections, messages and bytes sent, connections ended by reason. */
function hubMetrics(services: Services, openConnections: () => number) {
  const registers = [services.health.registry];
  new Gauge({
    name: 'bolx_hub_connections', help: 'Open real-time hub connections', registers,
    collect() { this.set(openConnections()); },
  });
  const messages = new Counter({ name: 'bolx_hub_messages_sent_total', help: 'Hub messages sent, by kind', labelNames: ['kind'] as const, registers });
  const bytes = new Counter({ name: 'bolx_hub_bytes_sent_total', help: 'Hub message bytes sent', registers });
  const closed = new Counter({ name: 'bolx_hub_connections_closed_total', help: 'Hub connections ended, by reason', labelNames: ['reason'] as const, registers });
  return {
    sent(kind: 'event' | 'ping' | 'completion', n: number) {
      messages.inc({ kind });
      bytes.inc(n);
    },
    closed(reason: string) {
      closed.inc({ reason });
    },
  };
}
