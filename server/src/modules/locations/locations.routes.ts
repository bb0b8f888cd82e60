import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  queuedJobResult,
  STAFF_ROLES, apiErrorSchema, bulkCreateResult, filterLabelsResponse, locationByIdQuery, locationInput, locationListRequest,
  locationListResponse, locationPatternInput, locationPatternPreview, locationSchema, locationTypeSchema, mutationResult,
  occupancyQuery, printLabelsRequest, qrCodeQuery, updateLocationInput, uploadLocationsFields, uploadResult, warehouseOccupancy,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';
import { badRequest } from '../../platform/errors.js';
import { parseFields, receiveParts, tooLarge, UPLOAD_MAX_BYTES } from '../../platform/files.js';
import { UPLOAD_JOBS, uploadNowOrQueued } from '../uploads/upload-jobs.js';

const tags = ['Locations'];
const BASE = '/warehouse/Location';

/** Reading a screen's data: any role with the module; a client's reads are held to locations in use. */
const read = (key: string): RoutePolicy => ({ access: 'authenticated', module: { key, permission: 'read' }, scope: 'tenant' });
/** Staff work: never a client account. */
const staff = (key: string, permission: 'read' | 'write'): RoutePolicy => ({ access: 'authenticated', roles: STAFF_ROLES, module: { key, permission }, scope: 'tenant' });

const writeErrors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };
const file = (description: string) => z.any().describe(description);

/** The warehouse field and the one file of an upload form, whatever order the parts come in. */
async function readUpload(req: FastifyRequest): Promise<{ warehouseId: number; fileName: string; content: Buffer }> {
  if (!req.isMultipart()) throw badRequest('Send the file as multipart/form-data');
  const { fields, file } = await receiveParts(req);
  if (file?.oversized) throw tooLarge(UPLOAD_MAX_BYTES);
  const { warehouseId } = parseFields(uploadLocationsFields, fields);
  if (!file) throw badRequest('Please choose a file', { file: 'Please choose a file' });
  return { warehouseId, fileName: file.fileName, content: file.bytes };
}

export const locationRoutes: RouteModule = (api, { locations, uploadQueue }) => {
  api.get(`${BASE}/GetLocationTypes`, {
    schema: { tags, summary: 'The kinds of location (rack, shelf, zone, aisle; staging, dock, returns, quarantine)', response: { 200: z.array(locationTypeSchema), ...authErrors } },
    config: { policy: { access: 'authenticated', scope: 'none' } },
  }, () => locations.types());

  api.post(`${BASE}/CreateLocation`, {
    schema: { tags, summary: 'Create one location (code unique per warehouse)', body: locationInput, response: { 200: mutationResult(locationSchema), ...writeErrors } },
    config: { policy: staff('CreateLocation', 'write') },
  }, (req) => locations.create(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/PreviewLocationPattern`, {
    schema: { tags, summary: 'How many locations a pattern makes, its first codes and any that exist; writes nothing', body: locationPatternInput, response: { 200: locationPatternPreview, ...authErrors } },
    config: { policy: staff('CreateLocation', 'read') },
  }, (req) => locations.previewPattern(principalOf(req), req.body));

  api.post(`${BASE}/CreateLocationsByPattern`, {
    schema: { tags, summary: 'Create every zone-aisle-rack-level(-bin) combination, all or nothing', body: locationPatternInput, response: { 200: mutationResult(bulkCreateResult), ...writeErrors } },
    config: { policy: staff('CreateLocation', 'write') },
  }, (req) => locations.createByPattern(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UploadLocations`, {
    schema: {
      tags, summary: 'Upload one CSV or XLSX sheet of locations (multipart: warehouseId, file); any bad row writes nothing (422 with row errors)',
      consumes: ['multipart/form-data'], response: { 200: mutationResult(uploadResult), 202: mutationResult(queuedJobResult), ...writeErrors },
    },
    config: { policy: staff('LocationUpload', 'write'), uploadFields: uploadLocationsFields },
  }, async (req, reply) => {
    const sheet = await readUpload(req);
    const [principal, actor] = [principalOf(req), actorOf(req)];
    const upload = { fields: { warehouseId: String(sheet.warehouseId) }, file: { fileName: sheet.fileName, bytes: sheet.content } };
    return uploadNowOrQueued(uploadQueue, reply, principal, actor, {
      name: UPLOAD_JOBS.locations, upload, maxBytes: UPLOAD_MAX_BYTES, scope: () => ({ warehouseId: sheet.warehouseId }),
    }, () => locations.upload(principal, sheet, actor));
  });

  api.get(`${BASE}/DownloadLocationTemplate`, {
    schema: { tags, summary: 'The upload template (xlsx)', response: { 200: file('xlsx file'), ...authErrors } },
    config: { policy: staff('LocationUpload', 'read') },
  }, async (_req, reply) => sendXlsx(reply, 'location-template', await locations.template()));

  api.post(`${BASE}/GetLocations`, {
    schema: { tags, summary: 'Storage locations: filters, search, sort, paging; capacity, on hand and occupancy', body: locationListRequest, response: { 200: locationListResponse, ...authErrors } },
    config: { policy: read('Location') },
  }, (req) => locations.list(principalOf(req), req.body, 'storage'));

  api.post(`${BASE}/DownloadLocationExcel`, {
    schema: { tags, summary: 'The filtered location list as an Excel workbook', body: locationListRequest, response: { 200: file('xlsx file'), ...authErrors } },
    config: { policy: read('Location') },
  }, async (req, reply) => sendXlsx(reply, 'locations', await locations.download(principalOf(req), req.body, 'storage')));

  api.get(`${BASE}/LocationFiltersLabels`, {
    schema: { tags, summary: 'The location list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: read('Location') },
  }, (req) => locations.filterLabels(principalOf(req)));

  api.get(`${BASE}/GetLocationById`, {
    schema: { tags, summary: 'One location with its occupancy', querystring: locationByIdQuery, response: { 200: locationSchema, ...authErrors } },
    config: { policy: read('Location') },
  }, (req) => locations.get(principalOf(req), req.query.locationId));

  api.put(`${BASE}/UpdateLocation`, {
    schema: { tags, summary: 'Update a location (its warehouse stays)', body: updateLocationInput, response: { 200: mutationResult(locationSchema), ...writeErrors } },
    config: { policy: staff('Location', 'write') },
  }, (req) => locations.update(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/GetLocationOccupancy`, {
    schema: { tags, summary: 'Storage positions per warehouse: total, used and percent used', querystring: occupancyQuery, response: { 200: z.array(warehouseOccupancy), ...authErrors } },
    config: { policy: staff('Location', 'read') },
  }, (req) => locations.occupancy(principalOf(req), req.query.warehouseId));

  api.post(`${BASE}/GetOtherLocations`, {
    schema: { tags, summary: 'Staging, dock, returns and quarantine locations, in the location list’s shape', body: locationListRequest, response: { 200: locationListResponse, ...authErrors } },
    config: { policy: read('OtherLocations') },
  }, (req) => locations.list(principalOf(req), req.body, 'other'));

  api.post(`${BASE}/DownloadOtherLocationExcel`, {
    schema: { tags, summary: 'The filtered other-locations list as an Excel workbook', body: locationListRequest, response: { 200: file('xlsx file'), ...authErrors } },
    config: { policy: read('OtherLocations') },
  }, async (req, reply) => sendXlsx(reply, 'other-locations', await locations.download(principalOf(req), req.body, 'other')));

  api.post(`${BASE}/PrintLocationLabels`, {
    schema: { tags, summary: 'Location labels as a PDF (Code 128 and/or QR; 4x6, 4x2, 2x1 or A4 sheets of 30)', body: printLabelsRequest, response: { 200: file('application/pdf'), ...authErrors } },
    config: { policy: staff('PrintLocations', 'read') },
  }, async (req, reply) => {
    const pdf = await locations.printLabels(principalOf(req), req.body);
    return reply.type('application/pdf').header('content-disposition', 'inline; filename="location-labels.pdf"').send(pdf);
  });

  api.get(`${BASE}/GetQRCode`, {
    schema: { tags, summary: 'A QR code (or with symbology=code128 a Code 128 with the text under it) of the text, as PNG or SVG', querystring: qrCodeQuery, response: { 200: file('image/png or image/svg+xml'), ...authErrors } },
    config: { policy: { access: 'authenticated', module: { key: 'QRCode', permission: 'read' }, scope: 'none' } },
  }, async (req, reply) => {
    const image = await locations.qrCode(req.query.text, req.query.format, req.query.symbology);
    return reply.type(image.type).header('cache-control', 'private, max-age=3600').send(image.body);
  });
};
