import {
  STAFF_ROLES, apiErrorSchema, assignPickJobInput, assignTotesInput, createWaveInput, createWaveResult, mutationResult, pickJobByIdQuery, pickJobDetail,
  pickJobIdInput, pickJobListRequest, pickJobListResponse, takeNextPickJobInput, waveByIdQuery, waveDetail, waveIdInput, waveListRequest, waveListResponse,
  waveSummary,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Waves and pick jobs'];
const WAVE = '/Warehouse/Wave';
const JOB = '/Warehouse/PickJob';
/** Releasing orders to the floor is batch allocation's last step (/BatchAllocation). */
const release: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'BatchAllocation', permission: 'write' }, scope: 'tenant' };
/** The supervisor's /BatchJob: waves and jobs read, assigned, cancelled. */
const supervise: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'BatchJob', permission: 'read' }, scope: 'tenant' };
const superviseWrite: RoutePolicy = { ...supervise, module: { key: 'BatchJob', permission: 'write' } };
/** Picking changes stock and jobs: taking the next job and scanning its totes need write, as the picking routes do. */
const pick: RoutePolicy = superviseWrite;
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const waveRoutes: RouteModule = (api, { waves, pickJobs }) => {
  api.post(`${WAVE}/CreateWave`, {
    schema: {
      tags, body: createWaveInput, response: { 200: mutationResult(createWaveResult), ...errors },
      summary: 'Release orders (named, or every Allocated order a rule matches) to the floor as one wave, cut into pick jobs by strategy; '
        + 'orders that cannot be released are listed with why, the others released',
    },
    config: { policy: release },
  }, (req) => waves.create(principalOf(req), req.body, actorOf(req)));

  api.post(`${WAVE}/GetWaves`, {
    schema: { tags, summary: 'Waves with their progress: filters (warehouse, status, dates), search by number, sort, paging', body: waveListRequest, response: { 200: waveListResponse, ...authErrors } },
    config: { policy: supervise },
  }, (req) => waves.list(principalOf(req), req.body));

  api.get(`${WAVE}/GetWave`, {
    schema: { tags, summary: 'One wave and its pick jobs', querystring: waveByIdQuery, response: { 200: waveDetail, ...authErrors } },
    config: { policy: supervise },
  }, (req) => waves.get(principalOf(req), req.query.waveId));

  api.post(`${WAVE}/CancelWave`, {
    schema: {
      tags, body: waveIdInput, response: { 200: mutationResult(waveSummary), ...errors },
      summary: 'Cancel a wave no one has picked from: its jobs are cancelled and its orders go back to Allocated (or what their lines hold)',
    },
    config: { policy: superviseWrite },
  }, (req) => waves.cancel(principalOf(req), req.body, actorOf(req)));

  api.post(`${JOB}/GetJobs`, {
    schema: {
      tags, body: pickJobListRequest, response: { 200: pickJobListResponse, ...authErrors },
      summary: 'Pick jobs with their progress: filters (warehouse, wave, status, assignee, mine), search by job or wave number, sort, paging',
    },
    config: { policy: supervise },
  }, (req) => pickJobs.list(principalOf(req), req.body));

  api.get(`${JOB}/GetJob`, {
    schema: { tags, summary: 'One pick job: its totes by slot, its stops in walking order with their tasks, and the last pick', querystring: pickJobByIdQuery, response: { 200: pickJobDetail, ...authErrors } },
    config: { policy: supervise },
  }, (req) => pickJobs.get(principalOf(req), req.query.jobId));

  api.post(`${JOB}/AssignJob`, {
    schema: { tags, summary: 'Assign an Open or Assigned job to a picker of its warehouse, or (no userId) give it back to Open', body: assignPickJobInput, response: { 200: mutationResult(pickJobDetail), ...errors } },
    config: { policy: superviseWrite },
  }, (req) => pickJobs.assign(principalOf(req), req.body, actorOf(req)));

  api.post(`${JOB}/TakeNextJob`, {
    schema: {
      tags, body: takeNextPickJobInput, response: { 200: mutationResult(pickJobDetail), ...errors },
      summary: 'Take the next job of a warehouse: your own Assigned job first, else the most urgent, oldest Open one (never one another picker took); 404 when none is waiting',
    },
    config: { policy: pick },
  }, (req) => pickJobs.takeNext(principalOf(req), req.body, actorOf(req)));

  api.post(`${JOB}/AssignTotes`, {
    schema: {
      tags, body: assignTotesInput, response: { 200: mutationResult(pickJobDetail), ...errors },
      summary: 'Totes for a job’s orders by slot: each an active, empty tote location of the warehouse not in another live job',
    },
    config: { policy: pick },
  }, (req) => pickJobs.assignTotes(principalOf(req), req.body, actorOf(req)));

  api.post(`${JOB}/CancelJob`, {
    schema: {
      tags, body: pickJobIdInput, response: { 200: mutationResult(pickJobDetail), ...errors },
      summary: 'Cancel an Open or Assigned job: its orders in no other live job go back to Allocated (or what their lines hold)',
    },
    config: { policy: superviseWrite },
  }, (req) => pickJobs.cancel(principalOf(req), req.body, actorOf(req)));
};
