import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { RoutePolicy } from '../../src/plugins/access.js';
import { multipartBody } from '../../test/helpers.js';
import { sampleOf } from './schema-walk.js';

/** The API's routes as the route table holds them, one per method, without the file-serving ones and HEAD. */
export interface ApiRoute {
  method: string; url: string; policy: RoutePolicy | undefined;
  body?: z.ZodType; querystring?: z.ZodType; params?: z.ZodType; uploadFields?: z.ZodType;
}

const NOT_API = [/^\/docs/, /^\/hubs\//, /\*/];

export function apiRoutes(app: FastifyInstance): ApiRoute[] {
  return app.routeTable.filter((r: RouteOptions) => !(r.config as { servesFiles?: boolean } | undefined)?.servesFiles && !NOT_API.some((re) => re.test(r.url)))
    .flatMap((r) => ([] as string[]).concat(r.method as string | string[]).filter((m) => m !== 'HEAD' && m !== 'OPTIONS').map((method) => {
      const schema = (r.schema ?? {}) as Partial<Record<'body' | 'querystring' | 'params', z.ZodType>>;
      const config = r.config as { policy?: RoutePolicy; uploadFields?: z.ZodType } | undefined;
      return {
        method, url: r.url, policy: config?.policy, body: schema.body, querystring: schema.querystring, params: schema.params,
        uploadFields: config?.uploadFields,
      } satisfies ApiRoute;
    }));
}

export const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

/** The parts of one request: a body, a querystring, path params, or the text fields of a multipart upload. */
export interface RequestParts { body?: unknown; query?: Record<string, unknown>; params?: Record<string, unknown>; fields?: Record<string, unknown> }

/** A plausible request for a route, its integer fields named like ids answered by `idFor`. */
export function sampleRequest(route: ApiRoute, idFor: (field: string) => number | undefined = () => undefined): RequestParts {
  const parts: RequestParts = {};
  if (route.body) parts.body = sampleOf(route.body, idFor);
  if (route.querystring) parts.query = sampleOf(route.querystring, idFor) as Record<string, unknown>;
  if (route.params) parts.params = sampleOf(route.params, idFor) as Record<string, unknown>;
  if (route.uploadFields) parts.fields = sampleOf(route.uploadFields, idFor) as Record<string, unknown>;
  return parts;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Sends one request through app.inject (no network), with the given headers. */
export function send(app: FastifyInstance, route: ApiRoute, parts: RequestParts, headers: Record<string, string>) {
  let url = route.url;
  for (const [k, v] of Object.entries(parts.params ?? {})) url = url.replace(`:${k}`, encodeURIComponent(text(v)));
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(parts.query ?? {})) if (v !== undefined) for (const item of Array.isArray(v) ? v : [v]) query.append(k, text(item));
  if (query.size) url += `?${query}`;
  const opts: InjectOptions = { method: route.method as InjectOptions['method'], url, headers };
  if (route.uploadFields) {
    const fields = Object.fromEntries(Object.entries(parts.fields ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => [k, text(v)]));
    const form = multipartBody(fields, { name: 'sheet.csv', bytes: Buffer.from('a,b\n1,2\n') });
    return app.inject({ ...opts, payload: form.payload, headers: { ...headers, ...form.headers } });
  }
  if (parts.body !== undefined) return app.inject({ ...opts, payload: JSON.stringify(parts.body), headers: { ...headers, 'content-type': 'application/json' } });
  return app.inject({ ...opts, payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
}
