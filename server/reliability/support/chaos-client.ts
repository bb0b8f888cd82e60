import { randomUUID } from 'node:crypto';

/** A mutation the server answered 2xx, with the key it was sent under: it must have taken effect exactly once. */
export interface Acknowledged { method: string; path: string; body: unknown; key: string; status: number; answer: unknown }

/** The server went away mid-request (killed): the request may or may not have taken effect. */
export class CutOff extends Error {}

export interface Answer { status: number; json: any }

const MUTATING = new Set(['POST', 'PUT', 'DELETE']);

/**
 * An API client over real HTTP that sends every mutation with an Idempotency-Key and keeps the book the chaos test
 * checks against: what was acknowledged, what was cut off (to send again, same key, once the server is back), and
 * any 5xx.
 */
export class ChaosClient {
  readonly acknowledged: Acknowledged[] = [];
  readonly cutOff: Omit<Acknowledged, 'status' | 'answer'>[] = [];
  readonly serverErrors: string[] = [];

  constructor(private readonly baseUrl: string, private readonly token: () => string) {}

  async call(method: string, path: string, body?: unknown, key: string = randomUUID()): Promise<Answer> {
    const mutating = MUTATING.has(method);
    const headers: Record<string, string> = { authorization: `Bearer ${this.token()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (mutating) headers['idempotency-key'] = key;
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
      text = await res.text();
    } catch (err) {
      if (mutating) this.cutOff.push({ method, path, body, key });
      throw new CutOff(`${method} ${path}: ${(err as Error).message}`);
    }
    const json = text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    if (res.status >= 500) this.serverErrors.push(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
    if (mutating && res.status < 300) this.acknowledged.push({ method, path, body, key, status: res.status, answer: json });
    return { status: res.status, json };
  }

  post(path: string, body: unknown) { return this.call('POST', path, body); }
  get(path: string) { return this.call('GET', path); }
}
