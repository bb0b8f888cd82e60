// The SKU catalogue (spec section 7 "SKU", section 3 SKU/Package/Attribute/Barcode/Kit component): request and
// response schemas, shared by the server's routes and the web's forms.
import { z } from 'zod';
import { field } from './fields.js';
import { idParam, listRequest, listResponse } from './common.js';
import { activeFilter, yesNoFilter } from './lists.js';

// ---------------------------------------------------------------------------------------------------------
// GTIN check digits (GS1 mod-10), shared so the web form and the server give the same answer.

/** GTIN lengths: GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13), GTIN-14. */
export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/** The GS1 mod-10 check digit for the digits before it (weights 3,1,3,… from the right). */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** Why a GTIN is not valid (wrong length, not digits, bad check digit), or null when it is. */
export function gtinProblem(code: string, lengths: readonly number[] = GTIN_LENGTHS, name = 'GTIN'): string | null {
  if (!/^\d+$/.test(code)) return `${name} must contain digits only`;
  if (!lengths.includes(code.length)) return `${name} must be ${lengths.join(', ').replace(/, (\d+)$/, ' or $1')} digits long`;
  const expected = gtinCheckDigit(code.slice(0, -1));
  if (Number(code.at(-1)) !== expected) return `${name} check digit is wrong (expected ${expected})`;
  return null;
}

/** Barcode symbologies a SKU barcode may be; the GTIN family is check-digit validated. */
export const BARCODE_TYPES = ['UPC', 'EAN', 'GTIN-8', 'GTIN-14', 'GTIN', 'CODE128', 'CODE39', 'QR', 'DATAMATRIX', 'OTHER'] as const;
export type BarcodeType = (typeof BARCODE_TYPES)[number];
const GTIN_RULES: Partial<Record<BarcodeType, { lengths: readonly number[]; name: string }>> = {
  UPC: { lengths: [12], name: 'UPC' },
  EAN: { lengths: [13], name: 'EAN' },
  'GTIN-8': { lengths: [8], name: 'GTIN-8' },
  'GTIN-14': { lengths: [14], name: 'GTIN-14' },
  GTIN: { lengths: GTIN_LENGTHS, name: 'GTIN' },
};

/** Why a barcode is not valid for its type, or null. Non-GTIN symbologies take any printable text. */
export function barcodeProblem(type: BarcodeType, code: string): string | null {
  const rule = GTIN_RULES[type];
  if (rule) return gtinProblem(code, rule.lengths, rule.name);
  if (!/^[\x20-\x7E]+$/.test(code)) return 'Barcode may contain printable characters only';
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Shared field shapes.

const id = field.id();
const text = (max: number) => field.text(max, undefined, `At most ${max} characters`).trim();
const optionalText = (max: number) => text(max).nullable().optional().transform((v) => (v ? v : null));
/** A physical measure (cm or kg): positive, with a sane upper bound. */
const measure = (label: string) => z.number({ error: `${label} must be a number` }).positive(`${label} must be more than 0`).max(100_000, `${label} is too large`);
const optionalMeasure = (label: string) => measure(label).nullable().optional().transform((v) => v ?? null);
const quantity = z.number({ error: 'Please enter quantity!' }).int('Quantity must be a whole number').positive('Quantity must be more than 0').max(1_000_000);
const gtinField = field.text(14).trim().nullable().optional().transform((v) => (v ? v : null))
  .superRefine((v, ctx) => {
    const problem = v ? gtinProblem(v) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** UN number: 'UN' and four digits (UN1203). */
export const UN_NUMBER = /^UN\d{4}$/;
export const PACKING_GROUPS = ['I', 'II', 'III'] as const;
export const ABC_CLASSES = ['A', 'B', 'C'] as const;

// ---------------------------------------------------------------------------------------------------------
// Reference lists.

export const uomSchema = z.object({ uomCode: z.string(), uomName: z.string() });
export const uomList = z.array(uomSchema);

export const hazmatSchema = z.object({
  hazmatId: z.number().int(),
  uniqueid: z.number().int(),
  classCode: z.string().describe('Class or division, e.g. "3" or "2.1"'),
  hazardClass: z.number().int(),
  division: z.string().nullable(),
  name: z.string(),
  packingGroups: z.array(z.enum(PACKING_GROUPS)).describe('Packing groups this class uses; empty when it uses none'),
});
export type Hazmat = z.infer<typeof hazmatSchema>;
export const hazmatList = z.array(hazmatSchema);

// ---------------------------------------------------------------------------------------------------------
// SKU.

export const skuSchema = z.object({
  uniqueId: z.number().int(),
  skuId: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  skuCode: z.string(),
  description: z.string(),
  category: z.string().nullable(),
  uom: z.string(),
  upc: z.string().nullable(),
  iskititem: z.boolean(),
  isActive: z.boolean(),
  weightKg: z.number().nullable(),
  lengthCm: z.number().nullable(),
  widthCm: z.number().nullable(),
  heightCm: z.number().nullable(),
  minQty: z.number().int().nullable(),
  maxQty: z.number().int().nullable(),
  isLotTracked: z.boolean(),
  isExpiryTracked: z.boolean(),
  shelfLifeDays: z.number().int().nullable(),
  abcClass: z.enum(ABC_CLASSES).nullable(),
  isHazmat: z.boolean(),
  hazmatId: z.number().int().nullable(),
  hazmatClass: z.string().nullable(),
  unNumber: z.string().nullable(),
  packingGroup: z.enum(PACKING_GROUPS).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Sku = z.infer<typeof skuSchema>;

const skuFields = z.object({
  skuCode: field.text(64, { error: 'Please enter SKU code!' }, 'At most 64 characters').trim().min(1, 'Please enter SKU code!')
    .regex(/^[A-Za-z0-9][A-Za-z0-9._\-/]*$/, 'Use letters, digits, . _ - / only'),
  description: field.text(255, { error: 'Please enter description!' }, 'At most 255 characters').trim().min(1, 'Please enter description!'),
  category: optionalText(64),
  uom: field.text(16).trim().toUpperCase().optional().default('EA'),
  upc: gtinField,
  iskititem: z.boolean().optional().default(false),
  isActive: z.boolean().optional().default(true),
  weightKg: optionalMeasure('Weight'),
  lengthCm: optionalMeasure('Length'),
  widthCm: optionalMeasure('Width'),
  heightCm: optionalMeasure('Height'),
  minQty: z.number().int('Min quantity must be a whole number').min(0, 'Min quantity cannot be negative').max(100_000_000).nullable().optional().transform((v) => v ?? null),
  maxQty: z.number().int('Max quantity must be a whole number').min(0, 'Max quantity cannot be negative').max(100_000_000).nullable().optional().transform((v) => v ?? null),
  isLotTracked: z.boolean().optional().default(false),
  isExpiryTracked: z.boolean().optional().default(false),
  shelfLifeDays: z.number().int('Shelf life must be whole days').min(0).max(36_500).nullable().optional().transform((v) => v ?? null),
  abcClass: z.enum(ABC_CLASSES).nullable().optional().transform((v) => v ?? null),
  /** Hazmat: all three or none; the packing group must be one the class uses. */
  hazmatId: id.nullable().optional().transform((v) => v ?? null),
  unNumber: field.text(16).trim().toUpperCase().regex(UN_NUMBER, "UN number must be 'UN' and 4 digits (e.g. UN1203)").nullable().optional()
    .or(z.literal('').transform(() => null)).transform((v) => v ?? null),
  packingGroup: z.enum(PACKING_GROUPS, { error: 'Packing group must be I, II or III' }).nullable().optional().transform((v) => v ?? null),
});

/** Cross-field rules both forms share. */
function skuRules(v: { minQty: number | null; maxQty: number | null; hazmatId: number | null; unNumber: string | null }, ctx: z.RefinementCtx) {
  if (v.minQty != null && v.maxQty != null && v.minQty > v.maxQty) ctx.addIssue({ code: 'custom', path: ['maxQty'], message: 'Max quantity must be at least the min quantity' });
  if (v.unNumber && v.hazmatId == null) ctx.addIssue({ code: 'custom', path: ['hazmatId'], message: 'Please choose a hazard class for the UN number' });
  if (v.hazmatId != null && !v.unNumber) ctx.addIssue({ code: 'custom', path: ['unNumber'], message: 'Please enter the UN number' });
}

export const skuInput = skuFields.extend({ customerId: id }).superRefine(skuRules);
export type SkuInput = z.infer<typeof skuInput>;
/** UpdateSku: the SKU is named by skuId (its uniqueId); its customer never changes. */
export const updateSkuInput = skuFields.extend({ skuId: id }).superRefine(skuRules);
export type UpdateSkuInput = z.infer<typeof updateSkuInput>;


export const skuFilters = z.object({
  customerId: id.optional(),
  category: field.text(64).optional(),
  isKit: yesNoFilter,
  isActive: activeFilter,
});
export type SkuFilters = z.infer<typeof skuFilters>;
export const skuListRequest = listRequest(skuFilters);
export const skuListResponse = listResponse(skuSchema);

export const skuIdQuery = z.object({ skuid: idParam });
export const customerIdQuery = z.object({ customerid: idParam });

// ---------------------------------------------------------------------------------------------------------
// Kit components.

export const kitComponentSchema = z.object({
  uniqueid: z.number().int(),
  kitSkuId: z.number().int(),
  customerid: z.number().int(),
  componentSkuId: z.number().int(),
  componentSkuCode: z.string(),
  componentDescription: z.string(),
  componentIsKit: z.boolean(),
  quantity: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KitComponent = z.infer<typeof kitComponentSchema>;
export const kitComponentList = z.array(kitComponentSchema);
export const kitComponentInput = z.object({ kitSkuId: id, componentSkuId: id, quantity });
export const updateKitComponentInput = z.object({ uniqueid: id, componentSkuId: id.optional(), quantity });
export const kitComponentIdQuery = z.object({ kitid: idParam });
export const kitComponentsQuery = z.object({ skuId: idParam });

// ---------------------------------------------------------------------------------------------------------
// Packages: a per-SKU hierarchy (each, inner, case, pallet…), each level with its quantity per parent.

export const PACKAGE_TYPES = ['Each', 'Inner', 'Case', 'Carton', 'Box', 'Pallet', 'Other'] as const;

export const skuPackageSchema = z.object({
  packageid: z.number().int(),
  uniqueId: z.number().int(),
  skuId: z.number().int(),
  customerid: z.number().int(),
  skuCode: z.string(),
  packageType: z.string(),
  packageName: z.string(),
  parentPackageId: z.number().int().nullable(),
  quantity: z.number().int().describe('How many of this package make up one parent package'),
  lengthCm: z.number().nullable(),
  widthCm: z.number().nullable(),
  heightCm: z.number().nullable(),
  weightKg: z.number().nullable(),
  gtin: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SkuPackage = z.infer<typeof skuPackageSchema>;
export const skuPackageList = z.array(skuPackageSchema);

/** One node of GetParentAndChildPackages: a package, its parent's id, and its children. */
export type PackageNode = SkuPackage & { parentUniqueId: number | null; childPackages: PackageNode[] };
export const packageNodeSchema: z.ZodType<PackageNode> = skuPackageSchema.extend({
  parentUniqueId: z.number().int().nullable(),
  get childPackages() { return z.array(packageNodeSchema); },
});
export const packageTree = z.array(packageNodeSchema);
export const packageTreeQuery = z.object({ skuid: idParam.optional(), customerid: idParam.optional() });

const packageFields = z.object({
  packageType: z.enum(PACKAGE_TYPES, { error: `Package type must be one of ${PACKAGE_TYPES.join(', ')}` }),
  packageName: field.text(100, { error: 'Please enter package name!' }, 'At most 100 characters').trim().min(1, 'Please enter package name!'),
  parentPackageId: id.nullable().optional().transform((v) => v ?? null),
  quantity,
  lengthCm: optionalMeasure('Length'),
  widthCm: optionalMeasure('Width'),
  heightCm: optionalMeasure('Height'),
  weightKg: optionalMeasure('Weight'),
  gtin: gtinField,
});
export const skuPackageInput = packageFields.extend({ skuId: id, customerid: id });
export type SkuPackageInput = z.infer<typeof skuPackageInput>;
export const updateSkuPackageInput = packageFields;
export type UpdateSkuPackageInput = z.infer<typeof updateSkuPackageInput>;
export const skuPackageIdQuery = z.object({ SkuPackId: idParam });
export const packageIdQuery = z.object({ packageid: idParam });

// ---------------------------------------------------------------------------------------------------------
// Barcodes: unique per customer; GTIN types are check-digit validated.

export const skuBarcodeSchema = z.object({
  uniqueid: z.number().int(),
  skuId: z.number().int(),
  customerid: z.number().int(),
  barcode: z.string(),
  barcodeType: z.enum(BARCODE_TYPES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SkuBarcode = z.infer<typeof skuBarcodeSchema>;
export const skuBarcodeList = z.array(skuBarcodeSchema);

const barcodeFields = z.object({
  barcode: field.text(64, { error: 'Please enter barcode!' }, 'At most 64 characters').trim().min(1, 'Please enter barcode!'),
  barcodeType: z.enum(BARCODE_TYPES, { error: `Barcode type must be one of ${BARCODE_TYPES.join(', ')}` }),
});
function barcodeRule(v: z.infer<typeof barcodeFields>, ctx: z.RefinementCtx) {
  const problem = barcodeProblem(v.barcodeType, v.barcode);
  if (problem) ctx.addIssue({ code: 'custom', path: ['barcode'], message: problem });
}
export const skuBarcodeInput = barcodeFields.extend({ skuId: id }).superRefine(barcodeRule);
export type SkuBarcodeInput = z.infer<typeof skuBarcodeInput>;
export const updateSkuBarcodeInput = barcodeFields.superRefine(barcodeRule);
export type UpdateSkuBarcodeInput = z.infer<typeof updateSkuBarcodeInput>;
export const skuBarcodeIdQuery = z.object({ skuBarcodeId: idParam });
export const barcodeIdQuery = z.object({ barcodeid: idParam });

// ---------------------------------------------------------------------------------------------------------
// Attributes: name/value pairs per SKU (hazmat fields live on the SKU itself).

export const skuAttributeSchema = z.object({
  uniqueid: z.number().int(),
  skuId: z.number().int(),
  customerid: z.number().int(),
  attributeName: z.string(),
  attributeValue: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SkuAttribute = z.infer<typeof skuAttributeSchema>;
export const skuAttributeList = z.array(skuAttributeSchema);
const attributeFields = z.object({
  attributeName: field.text(100, { error: 'Please enter attribute name!' }, 'At most 100 characters').trim().min(1, 'Please enter attribute name!'),
  attributeValue: field.text(500, { error: 'Please enter attribute value!' }, 'At most 500 characters').trim().min(1, 'Please enter attribute value!'),
});
export const skuAttributeInput = attributeFields.extend({ skuId: id });
export type SkuAttributeInput = z.infer<typeof skuAttributeInput>;
export const updateSkuAttributeInput = attributeFields;
export const attributeIdQuery = z.object({ attributeid: idParam });

// ---------------------------------------------------------------------------------------------------------
// Dimensions (/Dimensions): SKUs and their packages with L×W×H and weight.

export const dimensionRowSchema = z.object({
  uniqueId: z.string().describe('"sku-<id>" or "package-<id>"'),
  kind: z.enum(['sku', 'package']),
  skuId: z.number().int(),
  packageId: z.number().int().nullable(),
  customerId: z.number().int(),
  customerName: z.string(),
  skuCode: z.string(),
  description: z.string(),
  packageName: z.string().nullable(),
  lengthCm: z.number().nullable(),
  widthCm: z.number().nullable(),
  heightCm: z.number().nullable(),
  weightKg: z.number().nullable(),
  missingDimensions: z.boolean(),
});
export type DimensionRow = z.infer<typeof dimensionRowSchema>;
export const dimensionFilters = z.object({
  customerId: id.optional(),
  skuId: id.optional(),
  kind: z.enum(['all', 'sku', 'package']).optional(),
  /** Only rows with a dimension or the weight not yet captured. */
  missingOnly: yesNoFilter,
});
export type DimensionFilters = z.infer<typeof dimensionFilters>;
export const dimensionListRequest = listRequest(dimensionFilters);
export const dimensionListResponse = listResponse(dimensionRowSchema);
/** Captures a SKU's dimensions, or one of its packages' when packageId is given. */
export const updateDimensionsInput = z.object({
  skuId: id,
  packageId: id.nullable().optional().transform((v) => v ?? null),
  lengthCm: measure('Length'),
  widthCm: measure('Width'),
  heightCm: measure('Height'),
  weightKg: measure('Weight'),
});
export type UpdateDimensionsInput = z.infer<typeof updateDimensionsInput>;
export const updateDimensionsResult = z.object({ sku: skuSchema, package: skuPackageSchema.nullable() });

// --- SKU upload (Add Data panel) ------------------------------------------------------------------------
/** The columns of a SKU sheet; the category comes from the form (spec: SKU Category, file). */
export const SKU_UPLOAD_COLUMNS = ['SKU', 'Description', 'UOM', 'UPC', 'Weight (kg)', 'Length (cm)', 'Width (cm)', 'Height (cm)', 'Min Qty', 'Max Qty'] as const;
/** Most rows one SKU upload may hold. */
export const MAX_SKU_UPLOAD_ROWS = 5000;
export const SKU_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Multipart text fields of UploadSkus. */
export const uploadSkusFields = z.object({
  customerId: field.idParam('Please select a client'),
  skuCategory: field.text(64, { error: 'Please enter SKU category!' }, 'At most 64 characters').trim().min(1, 'Please enter SKU category!'),
});
export const uploadSkusResult = z.object({ count: z.number().int(), fileName: z.string() });
