import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** A JSON call of the API as a signed-in user: GET without data, POST with it; anything but 200 fails the test. */
export type Api = (path: string, data?: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Signs in through the API (beside the page's own session) for a spec's set-up and checks. */
export async function apiAs(page: Page, [username, password]: readonly [string, string]): Promise<Api> {
  const login = await page.request.post('/Common/Auth/login', { data: { username, password } });
  const headers = { authorization: `Bearer ${(await login.json()).accesstoken}` };
  return async (path, data) => {
    const res = data === undefined ? await page.request.get(path, { headers }) : await page.request.post(path, { headers, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return res.json();
  };
}
