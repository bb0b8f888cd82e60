import { z } from 'zod';
import { listRequest, listResponse } from './common.js';
import { field, INT_MAX } from './fields.js';

// ----- issue 18: the pallet register (licence plates), Add Data's Pallets card -----

/** Spec section 9: pallet types. */
export const PALLET_TYPES = ['standard', 'euro', 'custom'] as const;
export type PalletType = (typeof PALLET_TYPES)[number];
/** A pallet id is the licence plate stock rows carry in their `pallet` column (receiving, moves, shipping). */
export const PALLET_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const PALLET_DIMENSION_MAX_CM = 1000;
export const PALLET_WEIGHT_MAX_KG = 100_000;
export const MAX_PALLETS_PER_FILE = 5000;
/** The upload sheet's columns, in the template's order (spec section 2: Pallet Type, Dimensions, Weight Capacity, Current Location). */
export const PALLET_UPLOAD_COLUMNS = ['Pallet ID', 'Pallet Type', 'Length (cm)', 'Width (cm)', 'Height (cm)', 'Weight Capacity (kg)', 'Current Location'] as const;

export const MSG_PALLET = {
  id: 'Use 1–64 letters, digits, dots, dashes or underscores',
  type: 'Please select the pallet type',
  dimensions: 'Enter the length, width and height in cm',
  weight: 'Enter the weight capacity in kg',
  location: 'Please select the current location',
} as const;

const dimension = field.decimal(0.1, PALLET_DIMENSION_MAX_CM, MSG_PALLET.dimensions);

export const createPalletInput = z.object({
  warehouseId: field.id({ error: 'Please select a warehouse' }),
  /** Whose pallet; its GS1 prefix gives the pallet an SSCC. */
  customerId: field.id().optional(),
  /** The licence plate; without one the pallet is numbered (its SSCC when the client has a GS1 prefix). */
  palletId: field.text(64).trim().regex(PALLET_ID, MSG_PALLET.id).optional(),
  palletType: z.enum(PALLET_TYPES, { error: MSG_PALLET.type }),
  lengthCm: dimension,
  widthCm: dimension,
  heightCm: dimension,
  weightCapacityKg: field.decimal(0.1, PALLET_WEIGHT_MAX_KG, MSG_PALLET.weight),
  /** Where it is: the location's id, or its code as scanned or typed. */
  locationId: field.id({ error: MSG_PALLET.location }).optional(),
  locationCode: field.text(32).trim().min(1, MSG_PALLET.location).optional(),
}).refine((p) => p.locationId !== undefined || p.locationCode !== undefined, { message: MSG_PALLET.location, path: ['locationCode'] });
export type CreatePalletInput = z.infer<typeof createPalletInput>;
/** The upload form's fields beside the file. */
export const uploadPalletsFields = z.object({ warehouseId: field.idParam(), customerId: field.intParam(0, INT_MAX).optional() });

export const pallet = z.object({
  uniqueid: z.number().int(), palletId: z.string(), sscc: z.string().nullable(), palletType: z.enum(PALLET_TYPES),
  lengthCm: z.number(), widthCm: z.number(), heightCm: z.number(), weightCapacityKg: z.number(),
  warehouseId: z.number().int(), customerId: z.number().int().nullable(), customerName: z.string().nullable(),
  locationId: z.number().int(), locationCode: z.string(),
  /** Units on it now (its stock rows' on-hand). */
  onHand: z.number().int(), createdAt: z.string(),
});
export type Pallet = z.infer<typeof pallet>;
export const palletRegisterRequest = listRequest(z.object({
  warehouseId: field.int(0, INT_MAX).optional(), customerId: field.int(0, INT_MAX).optional(), palletType: z.enum(PALLET_TYPES).optional(),
}));
export const palletRegisterResponse = listResponse(pallet);
