import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';
import { MSG_LOCATION } from './messages.js';

// The locations area's request and response schemas (spec sections 7 "Location" and 9: rack, shelf, zone, aisle).

/** Storage kinds hold stock in the racking; the other kinds are handling areas (the /OtherLocations screen). */
export const LOCATION_CATEGORIES = ['storage', 'other'] as const;
export type LocationCategory = (typeof LOCATION_CATEGORIES)[number];

/** Most locations one pattern or one upload may create. */
export const MAX_LOCATIONS_PER_CALL = 10_000;
/** Most labels one print may hold. */
export const MAX_LABELS_PER_PRINT = 1_000;
export const MAX_QR_TEXT = 500;


export const LOCATION_CODE = /^[A-Z0-9][A-Z0-9._/-]{0,63}$/;
const SEGMENT = /^[A-Z0-9]{1,16}$/;

const id = field.id();
const code = field.text(64, { error: MSG_LOCATION.code }).trim().min(1, MSG_LOCATION.code).toUpperCase().regex(LOCATION_CODE, MSG_LOCATION.codeFormat);
const locationType = field.text(32, { error: MSG_LOCATION.type }).trim().min(1, MSG_LOCATION.type).toLowerCase();
const capacity = z.number({ error: MSG_LOCATION.capacity }).int(MSG_LOCATION.capacityValid).min(0, MSG_LOCATION.capacityValid).max(100_000_000, MSG_LOCATION.capacityValid);
const segment = field.text(32).trim().toUpperCase().regex(SEGMENT, 'Use 1–16 letters or digits').nullable().optional();

export const locationTypeSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  category: z.enum(LOCATION_CATEGORIES),
});
export type LocationType = z.infer<typeof locationTypeSchema>;

export const locationSchema = z.object({
  uniqueid: z.number().int(),
  locationId: z.number().int(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  locationCode: z.string(),
  locationType: z.string(),
  category: z.enum(LOCATION_CATEGORIES),
  zone: z.string().nullable(),
  aisle: z.string().nullable(),
  rack: z.string().nullable(),
  level: z.string().nullable(),
  bin: z.string().nullable(),
  /** Units the location holds at most; 0 means unlimited. */
  capacity: z.number().int(),
  maxWeightKg: z.number().nullable(),
  isPickable: z.boolean(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  /** Units on hand (for a client account: its own units only). */
  onHand: z.number(),
  /** onHand / capacity in percent, one decimal; null when capacity is unlimited. */
  occupancy: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Location = z.infer<typeof locationSchema>;

export const locationInput = z.object({
  warehouseId: id,
  locationCode: code,
  locationType,
  capacity,
  description: field.text(255, undefined, 'Description is too long').trim().nullable().optional(),
  zone: segment,
  aisle: segment,
  rack: segment,
  level: segment,
  bin: segment,
  maxWeightKg: field.decimal(0, 1_000_000).nullable().optional(),
  isPickable: z.boolean().optional().default(true),
  isActive: z.boolean().optional().default(true),
});
export type LocationInput = z.infer<typeof locationInput>;
/** The warehouse of a location never changes; everything else may. */
export const updateLocationInput = locationInput.omit({ warehouseId: true }).extend({ locationId: id });
export type UpdateLocationInput = z.infer<typeof updateLocationInput>;

/** One range of a pattern: numbers (padded) or single letters, inclusive. */
const rangeValue = z.union([z.number().int().min(0).max(9999), field.text(8).trim().toUpperCase().regex(/^[A-Z]$/, 'Use a number or one letter')]);
const ordered = (from: number | string, to: number | string) =>
  typeof from === 'number' && typeof to === 'number' ? from <= to : typeof from === 'string' && typeof to === 'string' && from <= to;
export const patternRange = z.object({ from: rangeValue, to: rangeValue })
  .refine((r) => ordered(r.from, r.to), 'A range runs from a value to a later value of the same kind');
export type PatternRange = z.infer<typeof patternRange>;

export const locationPatternInput = z.object({
  warehouseId: id,
  type: locationType,
  zone: field.text(32).trim().toUpperCase().regex(SEGMENT, 'Use 1–16 letters or digits').optional(),
  aisles: patternRange,
  racks: patternRange,
  levels: patternRange,
  bins: patternRange.optional(),
  separator: z.enum(['-', '.', '_', '/', '']).optional().default('-'),
  /** Numbers are zero-padded to this many digits (2 → 01). */
  padding: z.number().int().min(0).max(4).optional().default(2),
  capacity,
  description: field.text(255).trim().nullable().optional(),
  maxWeightKg: field.decimal(0, 1_000_000).nullable().optional(),
  isPickable: z.boolean().optional().default(true),
});
export type LocationPatternInput = z.infer<typeof locationPatternInput>;

export const locationPatternPreview = z.object({
  count: z.number().int(),
  limit: z.number().int(),
  withinLimit: z.boolean(),
  /** The first codes, in creation order. */
  sample: z.array(z.string()),
  lastCode: z.string().nullable(),
  /** Codes that already exist in the warehouse (the first few) and how many there are. */
  conflicts: z.array(z.string()),
  conflictCount: z.number().int(),
});
export const bulkCreateResult = z.object({ count: z.number().int(), firstCode: z.string(), lastCode: z.string() });

export const OCCUPIED_FILTER = ['all', 'empty', 'occupied'] as const;
export const locationFilters = z.object({
  warehouseId: field.int(0, INT_MAX).optional(),
  type: field.text(32).trim().toLowerCase().optional(),
  zone: field.text(16).trim().toUpperCase().optional(),
  occupied: z.enum(OCCUPIED_FILTER).optional(),
  isActive: z.enum(['all', 'active', 'inactive']).optional(),
});
export type LocationFilters = z.infer<typeof locationFilters>;
export const locationListRequest = listRequest(locationFilters);
export const locationListResponse = listResponse(locationSchema);
export const locationByIdQuery = z.object({ locationId: field.idParam() });

export const warehouseOccupancy = z.object({
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  totalPositions: z.number().int(),
  usedPositions: z.number().int(),
  /** Used / total storage positions in percent; null with no positions. */
  occupancy: z.number().nullable(),
});
export const occupancyQuery = z.object({ warehouseId: field.intParam(0, INT_MAX).optional() });

/** Upload: one row's problem (row = spreadsheet row, the header being row 1). */
export const uploadRowError = z.object({ row: z.number().int(), column: z.string(), message: z.string() });
export type UploadRowError = z.infer<typeof uploadRowError>;
export const LOCATION_UPLOAD_COLUMNS = ['Location Code', 'Location Type', 'Zone', 'Aisle', 'Rack', 'Level', 'Bin', 'Capacity', 'Description'] as const;
/** UploadLocations' multipart fields (besides `file`). */
export const uploadLocationsFields = z.object({ warehouseId: field.idParam('Please select a warehouse') });
export const uploadResult = z.object({ count: z.number().int(), fileName: z.string() });

export const LABEL_SIZES = ['4x6', '4x2', '2x1', 'A4-sheet'] as const;
export const SYMBOLOGIES = ['code128', 'qr', 'both'] as const;
export const printLabelsRequest = z.object({
  warehouseId: id,
  /** Exactly these locations; otherwise every location matching the code range and filters. */
  locationIds: z.array(id).min(1).max(MAX_LABELS_PER_PRINT).optional(),
  fromCode: field.text(64).trim().toUpperCase().optional(),
  toCode: field.text(64).trim().toUpperCase().optional(),
  type: field.text(32).trim().toLowerCase().optional(),
  zone: field.text(16).trim().toUpperCase().optional(),
  labelSize: z.enum(LABEL_SIZES).optional().default('4x2'),
  symbology: z.enum(SYMBOLOGIES).optional().default('both'),
});
export type PrintLabelsRequest = z.infer<typeof printLabelsRequest>;

/** What the /QRCode screen draws: a QR code, or a Code 128 with the text printed under it. */
export const CODE_SYMBOLOGIES = ['qr', 'code128'] as const;
export type CodeSymbology = (typeof CODE_SYMBOLOGIES)[number];
export const qrCodeQuery = z.object({
  text: field.text(MAX_QR_TEXT, { error: 'Please enter text' }, `At most ${MAX_QR_TEXT} characters`).min(1, 'Please enter text'),
  format: z.enum(['png', 'svg']).optional().default('png'),
  symbology: z.enum(CODE_SYMBOLOGIES).optional().default('qr'),
});
