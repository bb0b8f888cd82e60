// autocannon, bounded and on loopback only, reduced to the figures the report needs.
import autocannon from 'autocannon';

export interface LoadCase {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * A sequence instead of one request: each turn of a connection takes the next slot (round-robin) and sends
   * that slot's requests in order — say ReceiveItem then Putaway on one receiving order.
   */
  slots?: { path: string; body: string }[][];
}

export interface LoadFigures {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  /** Non-2xx answers plus connection errors and timeouts: any of them makes the case invalid. */
  failures: number;
  /** The non-2xx answers by status, to say what failed. */
  statuses?: Record<string, number>;
}

export async function runLoad(baseUrl: string, c: LoadCase, seconds: number, connections: number): Promise<LoadFigures> {
  const url = new URL(c.path, baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`bench: refusing to load ${url.host}: loopback only`);
  let turn = 0;
  const requests = c.slots?.[0].map((_, i): autocannon.Request => ({
    method: c.method,
    setupRequest: (req, context) => {
      const ctx = context as { slot?: number };
      if (i === 0) ctx.slot = turn++ % c.slots!.length;
      const r = c.slots![ctx.slot ?? 0][i];
      return { ...req, path: r.path, body: r.body };
    },
  }));
  const result = await autocannon({
    url: url.toString(),
    method: c.method,
    headers: c.headers,
    body: c.body,
    requests,
    connections,
    duration: seconds,
    timeout: 10,
  });
  return {
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2')).map(([code, s]) => [code, s?.count ?? 0])),
  };
}

/**
 * Several rounds of one server as one figure: req/s over the whole measured time; p50/p99 as the mean of the
 * rounds' percentiles (autocannon gives no raw histogram to merge).
 */
export function combine(rounds: LoadFigures[]): LoadFigures {
  const sum = (pick: (f: LoadFigures) => number) => rounds.reduce((acc, f) => acc + pick(f), 0);
  const seconds = sum((f) => f.requests / (f.reqPerSec || Infinity));
  return {
    reqPerSec: seconds > 0 ? sum((f) => f.requests) / seconds : 0,
    p50: sum((f) => f.p50) / rounds.length,
    p99: sum((f) => f.p99) / rounds.length,
    requests: sum((f) => f.requests),
    failures: sum((f) => f.failures),
    statuses: rounds.reduce<Record<string, number>>((acc, f) => {
      for (const [code, count] of Object.entries(f.statuses ?? {})) acc[code] = (acc[code] ?? 0) + count;
      return acc;
    }, {}),
  };
}

/** One request outside the load, to check an answer before measuring it. */
export async function call(baseUrl: string, c: LoadCase): Promise<{ status: number; body: unknown }> {
  const res = await fetch(new URL(c.path, baseUrl), { method: c.method, headers: c.headers, body: c.body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: res.status, body };
}
