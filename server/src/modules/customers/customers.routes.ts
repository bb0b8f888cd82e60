import { z } from 'zod';
import {
  ADMIN_ROLES, addCustomerDocumentFields, apiErrorSchema, carrierCustomerIdQuery, CARRIER_DELETED, clientDocumentsQuery, createIntegrationInput, customerChannelIdQuery,
  customerDocumentSchema, CUSTOMER_DOCUMENT_MAX_BYTES, customerInfoQuery, customerOfQuery, customerInput, customerIntegrationQuery,
  customerIntegrationSchema, customerIntegrationsResponse, customerListRequest, customerListResponse, customerSchema,
  customerWarehouseSchema, deleteCarrierQuery, deleteChannelQuery, documentIdQuery, documentTypeSchema, filterLabelsResponse,
  integrationIdQuery, integrationPropertySchema, messageOnly, mutationResult, STAFF_ROLES, updateCustomerDocumentFields, updateCustomerInput,
  updateIntegrationInput,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';
import { receiveUpload, sendStoredFile } from '../../platform/files.js';

const base = '/Warehouse/Customer';
const customerModule = (permission: 'read' | 'write') => ({ key: 'Customer', permission });
/** Customer info and documents: staff in their scope, and a Client for its own customer. */
const read: RoutePolicy = { access: 'authenticated', module: customerModule('read'), scope: 'tenant' };
/** Carrier accounts and sales channels are staff-only, even masked. */
const staffRead: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: customerModule('read'), scope: 'tenant' };
/** Reference lists (integration catalogue, document types): no tenant data. */
const reference: RoutePolicy = { access: 'authenticated', module: customerModule('read'), scope: 'none' };
const write: RoutePolicy = { access: 'authenticated', roles: ADMIN_ROLES, module: customerModule('write'), scope: 'tenant' };

const tags = ['Customers'];
const carrierTags = ['Customer carriers'];
const channelTags = ['Customer sales channels'];
const documentTags = ['Customer documents'];
const conflictErrors = { ...authErrors, 409: apiErrorSchema };
const uploadFields = (fields: string) =>
  `multipart/form-data: ${fields}. Allowed: PDF, PNG, JPEG, XLSX, CSV, DOCX (checked by content and extension), at most ${CUSTOMER_DOCUMENT_MAX_BYTES / (1024 * 1024)} MB.`;

export const customerRoutes: RouteModule = (api, { customers }) => {
  // ----- customers -----
  api.post(`${base}/AddNewCustomer`, {
    schema: { tags, summary: 'Add a customer served by the given warehouses', body: customerInput, response: { 200: mutationResult(customerSchema), ...conflictErrors } },
    config: { policy: write },
  }, (req) => customers.add(principalOf(req), req.body, actorOf(req)));

  api.post(`${base}/GetCustomers`, {
    schema: { tags, summary: 'Customers in scope: filters, search, sort, paging', body: customerListRequest, response: { 200: customerListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => customers.list(principalOf(req), req.body));

  api.post(`${base}/DownloadCustomerExcel`, {
    schema: { tags, summary: 'The filtered customer list as an Excel workbook', body: customerListRequest, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => sendXlsx(reply, 'customers', await customers.download(principalOf(req), req.body)));

  api.get(`${base}/CustomerFiltersLabels`, {
    schema: { tags, summary: 'The customer list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => customers.filterLabels(principalOf(req)));

  api.post(`${base}/UpdateCustomer`, {
    schema: { tags, summary: 'Update a customer', body: updateCustomerInput, response: { 200: mutationResult(customerSchema), ...conflictErrors } },
    config: { policy: write },
  }, (req) => customers.update(principalOf(req), req.body, actorOf(req)));

  api.get(`${base}/GetCustomerInfoById`, {
    schema: { tags, summary: 'One customer with its warehouses', querystring: customerInfoQuery, response: { 200: customerSchema, ...authErrors } },
    config: { policy: read },
  }, (req) => customers.get(principalOf(req), req.query.customerid));

  api.get(`${base}/WarehouseByCustomerid`, {
    schema: { tags, summary: 'The warehouses serving a customer', querystring: customerOfQuery, response: { 200: z.array(customerWarehouseSchema), ...authErrors } },
    config: { policy: read },
  }, (req) => customers.warehouses(principalOf(req), req.query.customerId));

  // ----- carrier accounts -----
  api.get(`${base}/GetAllCustomerCarrier`, {
    schema: { tags: carrierTags, summary: 'A customer’s carrier accounts (secrets masked) and the carrier catalogue', querystring: customerOfQuery, response: { 200: customerIntegrationsResponse, ...authErrors } },
    config: { policy: staffRead },
  }, (req) => customers.carriers.listForCustomer(principalOf(req), req.query.customerId));

  api.get(`${base}/GetCarrierIntegrationProperties`, {
    schema: { tags: carrierTags, summary: 'The fields a carrier integration asks for', querystring: integrationIdQuery, response: { 200: z.array(integrationPropertySchema), ...authErrors } },
    config: { policy: reference },
  }, (req) => customers.carriers.properties(req.query.integrationId));

  api.post(`${base}/CreateIntegrationCarrier`, {
    schema: { tags: carrierTags, summary: 'Add a carrier account to a customer (one per carrier)', body: createIntegrationInput, response: { 200: mutationResult(customerIntegrationSchema), ...conflictErrors } },
    config: { policy: write },
  }, (req) => customers.carriers.create(principalOf(req), req.body, actorOf(req)));

  api.get(`${base}/GetCustomerCarrierDetails`, {
    schema: { tags: carrierTags, summary: 'A customer’s account with one carrier (integrationId: the carrier’s id)', querystring: customerIntegrationQuery, response: { 200: customerIntegrationSchema, ...authErrors } },
    config: { policy: staffRead },
  }, (req) => customers.carriers.details(principalOf(req), req.query.integrationId, req.query.customerId));

  api.put(`${base}/UpdateIntegrationCarrier`, {
    schema: { tags: carrierTags, summary: 'Update a carrier account; a secret sent back masked keeps the stored one', querystring: carrierCustomerIdQuery, body: updateIntegrationInput, response: { 200: mutationResult(customerIntegrationSchema), ...authErrors } },
    config: { policy: write },
  }, (req) => customers.carriers.update(principalOf(req), req.query.CarrierCustomerId, req.body, actorOf(req)));

  api.delete(`${base}/DeleteCarrier`, {
    schema: { tags: carrierTags, summary: `Delete a customer’s carrier account ('${CARRIER_DELETED}')`, querystring: deleteCarrierQuery, response: { 200: messageOnly, ...authErrors } },
    config: { policy: write },
  }, (req) => customers.carriers.remove(principalOf(req), { customerId: req.query.customerId, id: req.query.id }, actorOf(req)));

  // ----- sales channels -----
  api.get(`${base}/GetAllCustomerChannel`, {
    schema: { tags: channelTags, summary: 'A customer’s sales channels (secrets masked) and the channel catalogue', querystring: customerOfQuery, response: { 200: customerIntegrationsResponse, ...authErrors } },
    config: { policy: staffRead },
  }, (req) => customers.channels.listForCustomer(principalOf(req), req.query.customerId));

  api.get(`${base}/GetChannelProperties`, {
    schema: { tags: channelTags, summary: 'The fields a sales-channel integration asks for', querystring: integrationIdQuery, response: { 200: z.array(integrationPropertySchema), ...authErrors } },
    config: { policy: reference },
  }, (req) => customers.channels.properties(req.query.integrationId));

  api.get(`${base}/GetAllCustomerChannelDetails`, {
    schema: { tags: channelTags, summary: 'A customer’s integration with one channel (integrationId: the channel’s id)', querystring: customerIntegrationQuery, response: { 200: customerIntegrationSchema, ...authErrors } },
    config: { policy: staffRead },
  }, (req) => customers.channels.details(principalOf(req), req.query.integrationId, req.query.customerId));

  api.post(`${base}/CreateIntegrationSalesChannel`, {
    schema: { tags: channelTags, summary: 'Add a sales channel to a customer (one per channel)', body: createIntegrationInput, response: { 200: mutationResult(customerIntegrationSchema), ...conflictErrors } },
    config: { policy: write },
  }, (req) => customers.channels.create(principalOf(req), req.body, actorOf(req)));

  api.put(`${base}/UpdateCustomerSalesChannel`, {
    schema: { tags: channelTags, summary: 'Update a sales channel; a secret sent back masked keeps the stored one', querystring: customerChannelIdQuery, body: updateIntegrationInput, response: { 200: mutationResult(customerIntegrationSchema), ...authErrors } },
    config: { policy: write },
  }, (req) => customers.channels.update(principalOf(req), req.query.CustomerChannelId, req.body, actorOf(req)));

  api.delete(`${base}/DeleteCustomersaleschannel`, {
    schema: { tags: channelTags, summary: 'Delete a customer’s sales channel', querystring: deleteChannelQuery, response: { 200: messageOnly, ...authErrors } },
    config: { policy: write },
  }, (req) => customers.channels.remove(principalOf(req), { customerId: req.query.customerId, id: req.query.uniqueid, typeId: req.query.integrationId }, actorOf(req)));

  // ----- documents -----
  api.get(`${base}/GetDocumentTypes`, {
    schema: { tags: documentTags, summary: 'The document types', response: { 200: z.array(documentTypeSchema), ...authErrors } },
    config: { policy: reference },
  }, () => customers.documents.types());

  api.get(`${base}/GetClientDocumentTypes`, {
    schema: { tags: documentTags, summary: 'A customer’s documents with their types', querystring: clientDocumentsQuery, response: { 200: z.array(customerDocumentSchema), ...authErrors } },
    config: { policy: read },
  }, (req) => customers.documents.list(principalOf(req), req.query.CustomerId));

  api.post(`${base}/AddCustomerDocument`, {
    schema: {
      tags: documentTags, summary: 'Upload a customer document', description: uploadFields('file, customerId, documentTypeId, notes'),
      consumes: ['multipart/form-data'], response: { 200: mutationResult(customerDocumentSchema), ...authErrors },
    },
    config: { policy: write, uploadFields: addCustomerDocumentFields },
  }, async (req) => customers.documents.add(principalOf(req), await receiveUpload(req, { maxBytes: CUSTOMER_DOCUMENT_MAX_BYTES }), actorOf(req)));

  api.put(`${base}/UpdateCustomerDocument`, {
    schema: {
      tags: documentTags, summary: 'Change a document’s type and notes, or replace its file', description: uploadFields('documentId, documentTypeId, notes, optional file'),
      consumes: ['multipart/form-data'], response: { 200: mutationResult(customerDocumentSchema), ...authErrors },
    },
    config: { policy: write, uploadFields: updateCustomerDocumentFields },
  }, async (req) => customers.documents.update(principalOf(req), await receiveUpload(req, { maxBytes: CUSTOMER_DOCUMENT_MAX_BYTES }), actorOf(req)));

  api.get(`${base}/DownloadCustomerDocument`, {
    schema: { tags: documentTags, summary: 'Download a customer document', querystring: documentIdQuery, response: { 200: z.any().describe('the stored file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => sendStoredFile(reply, await customers.documents.file(principalOf(req), req.query.documentId)));
};
