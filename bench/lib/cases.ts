// The requests of the load cases, shared by the app-against-bare cases (run.ts) and the cluster case (cluster.ts).
import type { LoadCase } from './load.js';
import { settings } from './settings.js';
import type { CapturedRequests } from './trace.js';

export const loginCase: LoadCase = {
  method: 'POST',
  path: '/Common/Auth/login',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(settings.user),
};

/** The authenticated read: the warehouses and clients of a manager (not a Super Administrator, so scope queries run). */
export const readCase = (token: string): LoadCase => ({
  method: 'GET',
  path: '/Common/UserModule/GetWarehouseClient',
  headers: { authorization: `Bearer ${token}` },
});

/** A captured case's load: the captured requests, slot by slot, with the capture's sign-in. */
export function replayCase<K extends string>(captured: CapturedRequests<K>, name: K): LoadCase {
  const slots = captured.cases[name].slots;
  return {
    method: 'POST', path: slots[0][0].path, slots,
    headers: { authorization: `Bearer ${captured.token}`, 'content-type': 'application/json' },
  };
}
