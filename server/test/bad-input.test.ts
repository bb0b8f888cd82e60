import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildTestApp, login, type TestApp } from './helpers.js';

// Issue rule: bad input to any route answers 4xx with the error shape, never 5xx. Walks the whole route table
// as a Super Administrator (so access never hides a crash) with malformed, empty and wrongly typed input.
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await buildTestApp();
  token = (await login(t.app, ADMIN.username, ADMIN.password)).accesstoken;
});
afterAll(async () => { await t?.close(); });

const SKIP = [/^\/docs/, /^\/hubs\//, /^\/health$/, /^\/ready$/, /^\/metrics$/, /^\/Common\/Auth\/logout$/i, /\*/];
const WRONG_TYPES = { pageNumber: 'first', pageSize: -5, filters: 'none', searchQuery: 42, sort: 7, warehouseId: 'x', customerId: [], skuId: {}, quantity: 'lots', id: null };
// Well-formed ids that name nothing: the handler runs and must answer 404/4xx rather than crash.
const UNKNOWN = ['id', 'warehouseId', 'customerId', 'skuId', 'userId', 'locationId', 'whid', 'skuid', 'roid', 'attributeid', 'barcodeid', 'packageid', 'documentId', 'integrationId', 'countId', 'taskId', 'adjustmentId']
  .map((k) => `${k}=987654`).join('&');
const WRONG_QUERY = '?id=abc&warehouseId=-1&customerId=x&skuId=&userId=NaN&locationId=1e99&whid=z&skuid=q&roid=%00';

describe('bad input', () => {
  it('answers every route with 4xx and the error shape, never 5xx', async () => {
    const failures: string[] = [];
    const routes = t.app.routeTable.filter((r) => !SKIP.some((re) => re.test(r.url)));
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      for (const method of ([] as string[]).concat(route.method as string | string[])) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        const withBody = method !== 'GET' && method !== 'DELETE';
        const attempts = withBody
          ? [
              { url: route.url, payload: '{not json', headers: { 'content-type': 'application/json' } },
              { url: route.url, payload: WRONG_TYPES, headers: {} },
              { url: `${route.url}${WRONG_QUERY}`, payload: [], headers: {} },
              { url: `${route.url}?${UNKNOWN}`, payload: {}, headers: {} },
            ]
          : [{ url: `${route.url}${WRONG_QUERY}`, headers: {} }, { url: `${route.url}?${UNKNOWN}`, headers: {} }];
        for (const attempt of attempts) {
          const res = await t.app.inject({
            method: method as 'GET', url: attempt.url, payload: 'payload' in attempt ? attempt.payload : undefined,
            headers: { authorization: `Bearer ${token}`, ...attempt.headers },
          });
          const body = res.headers['content-type']?.toString().includes('json') ? res.json() : null;
          if (res.statusCode >= 500) failures.push(`${method} ${attempt.url} → ${res.statusCode} ${res.body.slice(0, 160)}`);
          else if (res.statusCode >= 400 && !(body && typeof body.status === 'number' && typeof body.message === 'string')) {
            failures.push(`${method} ${attempt.url} → ${res.statusCode} without the error shape`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
