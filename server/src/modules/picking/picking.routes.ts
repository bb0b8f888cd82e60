import {
  STAFF_ROLES, apiErrorSchema, checkPickScanInput, checkPickScanResult, confirmPickInput, pickResult, shortPickInput, undoPickInput,
} from '@bolx/contracts';
import { actorOf, callerOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Picking'];
const BASE = '/Warehouse/PickJob';
/** Picking is the warehouse's work: staff with the Batch Job module; a job of a warehouse outside their scope is not found. */
const pickPolicy: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'BatchJob', permission: 'write' }, scope: 'tenant' };
/** A pick's writes: the session is checked with the job's hold, one round trip (issue 13's pick rate). */
const pickWritePolicy: RoutePolicy = { ...pickPolicy, deferSession: true };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const pickingRoutes: RouteModule = (api, { picking }) => {
  api.post(`${BASE}/CheckPickScan`, {
    schema: {
      tags, body: checkPickScanInput, response: { 200: checkPickScanResult, ...errors },
      summary: 'Check one scan of a stop (location, item, lot or tote) before the next is asked for; a refusal names what was expected. Nothing is written',
    },
    config: { policy: pickPolicy },
  }, (req) => picking.checkPickScan(principalOf(req), req.body));

  api.post(`${BASE}/ConfirmPick`, {
    schema: {
      tags, body: confirmPickInput, response: { 200: pickResult, ...errors },
      summary: 'Confirm a stop: scans checked again (422 naming the field), the units moved bin → tote with their reservation, shared over the stop\'s tasks in order',
    },
    config: { policy: pickWritePolicy },
  }, (req) => picking.confirmPick(callerOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/ShortPick`, {
    schema: {
      tags, body: shortPickInput, response: { 200: pickResult, ...errors },
      summary: 'Short a stop: the units found are picked, the rest released; the bin gets a spot count; short lines are allocated again elsewhere (new stops at the end of the job) or left short',
    },
    config: { policy: pickWritePolicy },
  }, (req) => picking.shortPick(callerOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UndoPick`, {
    schema: {
      tags, body: undoPickInput, response: { 200: pickResult, ...errors },
      summary: 'Take back your last pick of the job (tote → bin); refused once the job is finished',
    },
    config: { policy: pickWritePolicy },
  }, (req) => picking.undoPick(callerOf(req), req.body, actorOf(req)));
};
