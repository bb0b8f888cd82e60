import { z } from 'zod';
import {
  STAFF_ROLES, apiErrorSchema, createPalletInput, mutationResult, palletRegisterRequest, palletRegisterResponse, queuedJobResult, uploadPalletsFields, uploadResult,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';
import { badRequest } from '../../platform/errors.js';
import { parseFields, receiveUpload, UPLOAD_MAX_BYTES } from '../../platform/files.js';
import { UPLOAD_JOBS, uploadNowOrQueued } from '../uploads/upload-jobs.js';

const tags = ['Pallets'];
const BASE = '/Warehouse/Pallet';
/** The pallet register is the warehouse's: staff with the pallet moves module. */
const staff = (permission: 'read' | 'write'): RoutePolicy => ({ access: 'authenticated', roles: STAFF_ROLES, module: { key: 'MovePallet', permission }, scope: 'tenant' });
const writeErrors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const palletRoutes: RouteModule = (api, { pallets, uploadQueue }) => {
  api.post(`${BASE}/GetPallets`, {
    schema: { tags, body: palletRegisterRequest, response: { 200: palletRegisterResponse, ...authErrors }, summary: 'Registered pallets: filters (warehouse, client, type), search by id, SSCC or location, sort, paging' },
    config: { policy: staff('read') },
  }, (req) => pallets.list(principalOf(req), req.body));

  api.post(`${BASE}/CreatePallet`, {
    schema: {
      tags, body: createPalletInput, response: { 200: mutationResult(z.object({ palletId: z.string() })), ...writeErrors },
      summary: 'Register one pallet (id unique in its warehouse; without one, its SSCC when the client has a GS1 prefix, else a PLT- number)',
    },
    config: { policy: staff('write') },
  }, (req) => pallets.create(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UploadPallets`, {
    schema: {
      tags, summary: 'Upload one CSV or XLSX sheet of pallets (multipart: warehouseId, customerId, file); any bad row or duplicate id writes nothing (422 with row errors)',
      consumes: ['multipart/form-data'], response: { 200: mutationResult(uploadResult), 202: mutationResult(queuedJobResult), ...writeErrors },
    },
    config: { policy: staff('write'), uploadFields: uploadPalletsFields },
  }, async (req, reply) => {
    const upload = await receiveUpload(req, { maxBytes: UPLOAD_MAX_BYTES });
    const { warehouseId, customerId } = parseFields(uploadPalletsFields, upload.fields);
    if (!upload.file) throw badRequest('Please choose a file', { file: 'Please choose a file' });
    const [principal, actor, file] = [principalOf(req), actorOf(req), upload.file];
    return uploadNowOrQueued(uploadQueue, reply, principal, actor, {
      name: UPLOAD_JOBS.pallets, upload, maxBytes: UPLOAD_MAX_BYTES, scope: () => ({ warehouseId, ...(customerId ? { customerId } : {}) }),
    }, () => pallets.upload(principal, { warehouseId, customerId: customerId || undefined, ...file }, actor));
  });

  api.get(`${BASE}/DownloadPalletTemplate`, {
    schema: { tags, summary: 'The upload template (xlsx) with sample rows', response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: staff('read') },
  }, async (_req, reply) => sendXlsx(reply, 'pallet-template', await pallets.template()));
};
