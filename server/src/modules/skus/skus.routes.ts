import { z } from 'zod';
import {
  STAFF_ROLES, apiErrorSchema, attributeIdQuery, barcodeIdQuery, customerIdQuery, dimensionListRequest, dimensionListResponse,
  filterLabelsResponse, hazmatList, kitComponentIdQuery, kitComponentInput, kitComponentList, kitComponentSchema, kitComponentsQuery,
  mutationResult, packageIdQuery, packageTree, packageTreeQuery, skuAttributeInput, skuAttributeList, skuAttributeSchema,
  skuBarcodeIdQuery, skuBarcodeInput, skuBarcodeList, skuBarcodeSchema, skuIdQuery, skuInput, skuListRequest, skuListResponse,
  skuPackageIdQuery, skuPackageInput, skuPackageList, skuPackageSchema, skuSchema, updateDimensionsInput, updateDimensionsResult,
  updateKitComponentInput, updateSkuAttributeInput, updateSkuBarcodeInput, updateSkuInput, updateSkuPackageInput, uomList,
  queuedJobResult, SKU_UPLOAD_MAX_BYTES, uploadSkusFields, uploadSkusResult,
} from '@bolx/contracts';
import { parseFields, receiveUpload } from '../../platform/files.js';
import { UPLOAD_JOBS, uploadNowOrQueued } from '../uploads/upload-jobs.js';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';

const tags = ['SKUs'];
const BASE = '/warehouse/Sku';
/** Reads: the SKU module, held to the caller's customers (a Client sees only its own SKUs). */
const read: RoutePolicy = { access: 'authenticated', module: { key: 'SKU', permission: 'read' }, scope: 'tenant' };
/** Writes: staff with SKU write; a Client account never changes the catalogue. */
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'SKU', permission: 'write' }, scope: 'tenant' };
/** Reference lists (UOMs, hazard classes) hold no tenant data. */
const reference: RoutePolicy = { access: 'authenticated', module: { key: 'SKU', permission: 'read' }, scope: 'none' };
const dimensionsRead: RoutePolicy = { access: 'authenticated', module: { key: 'Dimensions', permission: 'read' }, scope: 'tenant' };
const dimensionsWrite: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'Dimensions', permission: 'write' }, scope: 'tenant' };

const writeErrors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const skuRoutes: RouteModule = (api, { skus, uploadQueue }) => {
  // --- SKUs -------------------------------------------------------------------------------------------
  api.post(`${BASE}/AddNewSku`, {
    schema: { tags, summary: 'Add a SKU (code unique per client)', body: skuInput, response: { 200: mutationResult(skuSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.add(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UploadSkus`, {
    schema: {
      tags, summary: 'Create a client’s SKUs from one CSV or XLSX sheet (multipart: customerId, skuCategory, file); any bad row writes nothing (422 with row errors)',
      consumes: ['multipart/form-data'], response: { 200: mutationResult(uploadSkusResult), 202: mutationResult(queuedJobResult), ...writeErrors },
    },
    config: { policy: write, uploadFields: uploadSkusFields },
  }, async (req, reply) => {
    const upload = await receiveUpload(req, { maxBytes: SKU_UPLOAD_MAX_BYTES });
    const [principal, actor] = [principalOf(req), actorOf(req)];
    return uploadNowOrQueued(uploadQueue, reply, principal, actor, {
      name: UPLOAD_JOBS.skus, upload, maxBytes: SKU_UPLOAD_MAX_BYTES, scope: () => parseFields(uploadSkusFields, upload.fields),
    }, () => skus.upload(principal, upload, actor));
  });

  api.get(`${BASE}/DownloadSkuTemplate`, {
    schema: { tags, summary: 'The SKU upload template (xlsx)', response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'SKU', permission: 'read' }, scope: 'none' } },
  }, async (_req, reply) => sendXlsx(reply, 'sku-template', await skus.template()));

  api.get(`${BASE}/GetUOMs`, {
    schema: { tags, summary: 'Units of measure', response: { 200: uomList, ...authErrors } },
    config: { policy: reference },
  }, () => skus.uoms());

  api.post(`${BASE}/GetAllSkus`, {
    schema: { tags, summary: 'SKUs in scope: filters, search, sort, paging', body: skuListRequest, response: { 200: skuListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => skus.list(principalOf(req), req.body));

  api.post(`${BASE}/DownloadSKUExcel`, {
    schema: { tags, summary: 'The filtered SKU list as an Excel workbook', body: skuListRequest, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => sendXlsx(reply, 'skus', await skus.download(principalOf(req), req.body)));

  api.get(`${BASE}/SkuFiltersLabels`, {
    schema: { tags, summary: 'The SKU list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => skus.filterLabels(principalOf(req)));

  api.get(`${BASE}/GetSKUInfoById`, {
    schema: { tags, summary: 'One SKU', querystring: skuIdQuery, response: { 200: skuSchema, ...authErrors } },
    config: { policy: read },
  }, (req) => skus.get(principalOf(req), req.query.skuid));

  api.put(`${BASE}/UpdateSku`, {
    schema: { tags, summary: 'Update a SKU', body: updateSkuInput, response: { 200: mutationResult(skuSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.update(principalOf(req), req.body, actorOf(req)));

  // --- Kit components -----------------------------------------------------------------------------------
  api.get(`${BASE}/GetKitItemsByCustomerid`, {
    schema: { tags, summary: 'A client’s kit SKUs', querystring: customerIdQuery, response: { 200: z.array(skuSchema), ...authErrors } },
    config: { policy: read },
  }, (req) => skus.kitItemsByCustomer(principalOf(req), req.query.customerid));

  api.post(`${BASE}/AddKitComponent`, {
    schema: { tags, summary: 'Add a component to a kit (same client; a kit never contains itself)', body: kitComponentInput, response: { 200: mutationResult(kitComponentSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.kits.add(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/GetAllKitCompBySkuId`, {
    schema: { tags, summary: 'A kit’s components', querystring: kitComponentsQuery, response: { 200: kitComponentList, ...authErrors } },
    config: { policy: read },
  }, (req) => skus.kits.listByKit(principalOf(req), req.query.skuId));

  api.put(`${BASE}/UpdateKitComponent`, {
    schema: { tags, summary: 'Change a kit component’s quantity or SKU', body: updateKitComponentInput, response: { 200: mutationResult(kitComponentSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.kits.update(principalOf(req), req.body, actorOf(req)));

  api.delete(`${BASE}/DeleteKitComponent`, {
    schema: { tags, summary: 'Remove a kit component', querystring: kitComponentIdQuery, response: { 200: mutationResult(kitComponentSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.kits.delete(principalOf(req), req.query.kitid, actorOf(req)));

  // --- Packages -----------------------------------------------------------------------------------------
  api.get(`${BASE}/GetParentAndChildPackages`, {
    schema: { tags, summary: 'Package hierarchy: parents with their childPackages', querystring: packageTreeQuery, response: { 200: packageTree, ...authErrors } },
    config: { policy: read },
  }, (req) => skus.packages.tree(principalOf(req), req.query));

  api.post(`${BASE}/CreateSkuPackage`, {
    schema: { tags, summary: 'Add a packaging level to a SKU', body: skuPackageInput, response: { 200: mutationResult(skuPackageSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.packages.add(principalOf(req), req.body, actorOf(req)));

  api.put(`${BASE}/UpdateSkuPackage`, {
    schema: { tags, summary: 'Update a packaging level', querystring: skuPackageIdQuery, body: updateSkuPackageInput, response: { 200: mutationResult(skuPackageSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.packages.update(principalOf(req), req.query.SkuPackId, req.body, actorOf(req)));

  api.get(`${BASE}/GetSkuPackagesbySkuid`, {
    schema: { tags, summary: 'A SKU’s packages', querystring: skuIdQuery, response: { 200: skuPackageList, ...authErrors } },
    config: { policy: read },
  }, (req) => skus.packages.listBySku(principalOf(req), req.query.skuid));

  api.delete(`${BASE}/DeleteSkuPackageByid`, {
    schema: { tags, summary: 'Delete a package (not one with child packages)', querystring: packageIdQuery, response: { 200: mutationResult(skuPackageSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.packages.delete(principalOf(req), req.query.packageid, actorOf(req)));

  // --- Barcodes -----------------------------------------------------------------------------------------
  api.post(`${BASE}/CreateSkuBarcode`, {
    schema: { tags, summary: 'Add a barcode (unique per client; GTIN check digits validated)', body: skuBarcodeInput, response: { 200: mutationResult(skuBarcodeSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.barcodes.add(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/GetSkuBarcodebySkuid`, {
    schema: { tags, summary: 'A SKU’s barcodes', querystring: skuIdQuery, response: { 200: skuBarcodeList, ...authErrors } },
    config: { policy: read },
  }, (req) => skus.barcodes.listBySku(principalOf(req), req.query.skuid));

  api.put(`${BASE}/UpdateSkuBarcode`, {
    schema: { tags, summary: 'Update a barcode', querystring: skuBarcodeIdQuery, body: updateSkuBarcodeInput, response: { 200: mutationResult(skuBarcodeSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.barcodes.update(principalOf(req), req.query.skuBarcodeId, req.body, actorOf(req)));

  api.delete(`${BASE}/DeletsSkuBarcode`, {
    schema: { tags, summary: 'Delete a barcode (the spec’s spelling)', querystring: barcodeIdQuery, response: { 200: mutationResult(skuBarcodeSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.barcodes.delete(principalOf(req), req.query.barcodeid, actorOf(req)));

  // --- Attributes and hazmat ----------------------------------------------------------------------------
  api.get(`${BASE}/GetHazmats`, {
    schema: { tags, summary: 'UN hazard classes and divisions with their packing groups', response: { 200: hazmatList, ...authErrors } },
    config: { policy: reference },
  }, () => skus.hazmats());

  api.post(`${BASE}/CreateAttribute`, {
    schema: { tags, summary: 'Add a name/value attribute to a SKU', body: skuAttributeInput, response: { 200: mutationResult(skuAttributeSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.attributes.add(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/GetAttributesBySkuid`, {
    schema: { tags, summary: 'A SKU’s attributes', querystring: skuIdQuery, response: { 200: skuAttributeList, ...authErrors } },
    config: { policy: read },
  }, (req) => skus.attributes.listBySku(principalOf(req), req.query.skuid));

  api.put(`${BASE}/UpdateAttribute`, {
    schema: { tags, summary: 'Update an attribute', querystring: attributeIdQuery, body: updateSkuAttributeInput, response: { 200: mutationResult(skuAttributeSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.attributes.update(principalOf(req), req.query.attributeid, req.body, actorOf(req)));

  api.delete(`${BASE}/DeleteAttribute`, {
    schema: { tags, summary: 'Delete an attribute', querystring: attributeIdQuery, response: { 200: mutationResult(skuAttributeSchema), ...writeErrors } },
    config: { policy: write },
  }, (req) => skus.attributes.delete(principalOf(req), req.query.attributeid, actorOf(req)));

  // --- Dimensions (/Dimensions) ---------------------------------------------------------------------------
  api.post(`${BASE}/GetDimensions`, {
    schema: { tags, summary: 'SKUs and packages with their dimensions and weight', body: dimensionListRequest, response: { 200: dimensionListResponse, ...authErrors } },
    config: { policy: dimensionsRead },
  }, (req) => skus.dimensions.list(principalOf(req), req.body));

  api.put(`${BASE}/UpdateDimensions`, {
    schema: { tags, summary: 'Capture L×W×H (cm) and weight (kg) of a SKU or one of its packages', body: updateDimensionsInput, response: { 200: mutationResult(updateDimensionsResult), ...writeErrors } },
    config: { policy: dimensionsWrite },
  }, (req) => skus.dimensions.update(principalOf(req), req.body, actorOf(req)));
};
