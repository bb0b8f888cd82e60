// The customers area's request and response schemas: customers, their carrier accounts, sales-channel
// integrations and documents (spec section 7, Customer).
import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
import { MSG } from './messages.js';
import { listRequest, listResponse } from './common.js';
import { activeFilter } from './lists.js';

const id = field.idParam();
const optionalText = (max: number, message = 'Text is too long') => field.text(max, undefined, message).trim().nullable().optional();
const email = (required: string) => field.text(254, { error: required }, MSG.emailFormat).trim().min(1, required).email(MSG.emailFormat);

// ----- customers -----

/** A customer-warehouse entry: the entry is keyed by (customer, warehouse), so its uniqueid is the warehouse id. */
export const customerWarehouseSchema = z.object({
  uniqueid: z.number().int(),
  warehouseid: z.number().int(),
  customerId: z.number().int(),
  warehouseCode: z.string(),
  warehouseName: z.string(),
});
export type CustomerWarehouse = z.infer<typeof customerWarehouseSchema>;

export const customerSchema = z.object({
  uniqueid: z.number().int(),
  customerId: z.number().int(),
  customerCode: z.string(),
  customerName: z.string(),
  contactPerson: z.string().nullable(),
  email: z.string().nullable(),
  billingEmail: z.string().nullable(),
  phone: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
  /** Adjustments of more units than this need an approval; null means no approval step. */
  adjustmentApprovalThreshold: z.number().int().nullable(),
  /** An order short of stock waits as Backordered (filled as stock arrives) when true, else stays Partially Allocated. */
  allowBackorders: z.boolean(),
  /** The GS1 company prefix SSCCs are built from (7–10 digits); null: none (no SSCC labels). */
  gs1CompanyPrefix: z.string().nullable(),
  isActive: z.boolean(),
  warehouses: z.array(customerWarehouseSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customerInput = z.object({
  customerCode: field.text(32, { error: 'Please enter customer code!' }).trim().min(1, 'Please enter customer code!')
    .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, - and _ only'),
  customerName: field.text(150, { error: MSG.name }).trim().min(1, MSG.name),
  contactPerson: optionalText(150),
  email: email(MSG.email),
  billingEmail: z.union([z.literal(''), field.text(254, undefined, MSG.emailFormat).trim().email(MSG.emailFormat)]).nullable().optional(),
  phone: field.text(40, { error: MSG.phone }).trim().min(1, MSG.phone).regex(/^\+?[0-9 ()-]{7,20}$/, MSG.phoneValid),
  address1: optionalText(200),
  address2: optionalText(200),
  city: field.text(100, { error: MSG.city }, MSG.cityValid).trim().min(1, MSG.city).regex(/^[\p{L} .'-]+$/u, MSG.cityValid),
  state: field.text(100, { error: MSG.state }, MSG.stateValid).trim().min(1, MSG.state),
  zip: field.text(10, { error: MSG.zip }).trim().min(1, MSG.zip).regex(/^[A-Za-z0-9 -]{3,10}$/, MSG.zipValid),
  country: field.text(100, { error: MSG.country }, MSG.countryValid).trim().min(1, MSG.country),
  adjustmentApprovalThreshold: z.number().int().min(0).max(1_000_000_000).nullable().optional(),
  /** Omitted: unchanged (true for a new customer). */
  allowBackorders: z.boolean().optional(),
  /** Omitted: unchanged; '' or null: none. */
  gs1CompanyPrefix: z.union([z.literal(''), field.text(10).trim().regex(/^\d{7,10}$/, 'A GS1 company prefix is 7 to 10 digits')]).nullable().optional(),
  isActive: z.boolean().optional().default(true),
  /** The warehouses that serve the customer; each must be within the caller's warehouses. */
  warehouseIds: z.array(field.id(), { error: 'Please select a warehouse!' })
    .min(1, 'Please select a warehouse!').max(500),
});
export type CustomerInput = z.infer<typeof customerInput>;
export const updateCustomerInput = customerInput.extend({ customerId: field.id() });

export const customerFilters = z.object({
  isActive: activeFilter,
  warehouseId: field.intParam(0, INT_MAX).optional(),
  country: field.text(100).optional(),
});
export const customerListRequest = listRequest(customerFilters);
export const customerListResponse = listResponse(customerSchema);
/** GetCustomerInfoById?customerid (the spec's lower-case spelling). */
export const customerInfoQuery = z.object({ customerid: id });
export const customerOfQuery = z.object({ customerId: id });

// ----- integrations: carrier accounts and sales channels share one shape -----

/** One field an integration type asks for (account number, API key…); secret ones are stored encrypted. */
export const integrationPropertySchema = z.object({
  uniqueid: z.number().int(),
  integrationId: z.number().int(),
  propertyKey: z.string(),
  label: z.string(),
  isSecret: z.boolean(),
  isRequired: z.boolean(),
});
/** An integration type of the catalogue (UPS, FedEx…; Shopify, Amazon…): the spec's carrier type entry (uId). */
export const integrationTypeSchema = z.object({
  uId: z.number().int(),
  integrationId: z.number().int(),
  integrationCode: z.string(),
  integrationName: z.string(),
});

/** A property value as answered: a secret comes back masked (e.g. '••••1234'), never in full. */
export const integrationValueSchema = z.object({
  propertyId: z.number().int(),
  propertyKey: z.string(),
  label: z.string(),
  isSecret: z.boolean(),
  value: z.string(),
});
export const customerIntegrationSchema = z.object({
  uniqueid: z.number().int(),
  customerId: z.number().int(),
  integrationId: z.number().int(),
  integrationCode: z.string(),
  integrationName: z.string(),
  accountName: z.string(),
  isActive: z.boolean(),
  properties: z.array(integrationValueSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomerIntegration = z.infer<typeof customerIntegrationSchema>;

/** One customer's integrations of a kind, and the catalogue to add more from. */
export const customerIntegrationsResponse = z.object({
  items: z.array(customerIntegrationSchema),
  integrations: z.array(integrationTypeSchema),
});

const propertyValue = z.object({
  propertyId: field.id(),
  value: field.text(2000, undefined, 'Value is too long'),
});
const integrationFields = {
  accountName: field.text(100, { error: MSG.name }).trim().min(1, MSG.name),
  isActive: z.boolean().optional().default(true),
  /** Every property of the type; a secret sent back masked (as answered) keeps the stored value. */
  properties: z.array(propertyValue).max(50),
};
export const createIntegrationInput = z.object({
  customerId: field.id(),
  integrationId: field.id(),
  ...integrationFields,
});
export const updateIntegrationInput = z.object(integrationFields);
export type IntegrationFieldsInput = z.infer<typeof updateIntegrationInput>;

export const integrationIdQuery = z.object({ integrationId: id });
export const customerIntegrationQuery = z.object({ integrationId: id, customerId: id });
export const carrierCustomerIdQuery = z.object({ CarrierCustomerId: id });
export const customerChannelIdQuery = z.object({ CustomerChannelId: id });
export const deleteCarrierQuery = z.object({ customerId: id, id });
export const deleteChannelQuery = z.object({ customerId: id, integrationId: id, uniqueid: id });

/** The spec's carrier-deletion toast texts (section 8). */
export const CARRIER_DELETED = 'Carrier deleted successfully';
export const CARRIER_DELETE_FAILED = 'Failed to delete carrier';

// ----- documents -----

export const documentTypeSchema = z.object({ uniqueid: z.number().int(), documentTypeId: z.number().int(), documentTypeName: z.string() });

export const customerDocumentSchema = z.object({
  uniqueid: z.number().int(),
  documentId: z.number().int(),
  customerId: z.number().int(),
  documentTypeId: z.number().int(),
  documentTypeName: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  notes: z.string().nullable(),
  uploadedBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomerDocument = z.infer<typeof customerDocumentSchema>;

/** Upload rules for customer documents. */
export const CUSTOMER_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const CUSTOMER_DOCUMENT_TYPES = ['pdf', 'png', 'jpeg', 'xlsx', 'csv', 'docx'] as const;

/** AddCustomerDocument's multipart fields (besides `file`). */
export const addCustomerDocumentFields = z.object({
  customerId: id,
  documentTypeId: field.idParam('Please select a document type!'),
  notes: field.text(1000, undefined, 'Notes are too long').trim().optional(),
});
/** UpdateCustomerDocument's multipart fields; a `file` part is optional and replaces the stored file. */
export const updateCustomerDocumentFields = z.object({
  documentId: id,
  documentTypeId: field.idParam('Please select a document type!'),
  notes: field.text(1000, undefined, 'Notes are too long').trim().optional(),
});
export const clientDocumentsQuery = z.object({ CustomerId: id });
export const documentIdQuery = z.object({ documentId: id });
