import { z } from 'zod';
import { field } from './fields.js';
import { MSG, PASSWORD_MIN_LENGTH } from './messages.js';
import { idParam, listRequest, listResponse } from './common.js';
import { activeFilter } from './lists.js';
import { ROLE_LABELS, roleSchema } from './roles.js';

/** The users area (spec section 3 "User", section 7 "Warehouse and user"). */

const ROLE_LABEL_VALUES = Object.values(ROLE_LABELS) as [string, ...string[]];
export const USER_MESSAGES = {
  username: 'Please enter username!',
  usernameFormat: 'Use 3 to 100 letters, digits, . _ and - only',
  usertype: 'Please select a user type!',
  warehouse: 'Please select a warehouse!',
  client: 'Please select a client!',
} as const;

export const userWarehouseRef = z.object({ warehouseId: z.number().int(), warehouseName: z.string() });
export const userCustomerRef = z.object({ customerId: z.number().int(), customerName: z.string() });

/** One row of the user list; also the core of the details and of the ReceiveUserData payload. */
export const userListItem = z.object({
  uniqueid: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  timezone: z.string(),
  /** The role's label, e.g. 'Warehouse Manager'. */
  usertype: z.string(),
  role: roleSchema,
  /** A Client account's own customer. */
  customerId: z.number().int().nullable(),
  isActive: z.boolean(),
  warehouses: z.array(userWarehouseRef),
  customers: z.array(userCustomerRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserListItem = z.infer<typeof userListItem>;

const permissionSchema = z.enum(['read', 'write']);
export const userModuleGrant = z.object({ moduleId: field.id(), permission: permissionSchema });
export const userModuleGrantDetails = userModuleGrant.extend({ moduleKey: z.string(), moduleName: z.string(), appId: z.number().int() });

/** Everything the edit form needs; never the password hash. */
export const userDetails = userListItem.extend({
  emailVerified: z.boolean(),
  modules: z.array(userModuleGrantDetails),
});
export type UserDetails = z.infer<typeof userDetails>;

const userFields = {
  username: field.text(100, { error: USER_MESSAGES.username }).trim().min(1, USER_MESSAGES.username)
    .regex(/^[A-Za-z0-9._-]{3,100}$/, USER_MESSAGES.usernameFormat),
  email: field.text(254, { error: MSG.email }).trim().min(1, MSG.email).email(MSG.emailFormat),
  firstName: field.text(100, { error: MSG.firstName }).trim().min(1, MSG.firstName),
  lastName: field.text(100, { error: MSG.lastName }).trim().min(1, MSG.lastName),
  phone: field.text(40).trim().regex(/^\+?[0-9 ()-]{7,20}$/, MSG.phoneValid).nullable().optional(),
  timezone: field.text(64).trim().min(1).optional().default('UTC'),
  usertype: z.enum(ROLE_LABEL_VALUES, { error: USER_MESSAGES.usertype }),
  warehouses: z.array(idParam).max(1000).optional().default([]),
  customers: z.array(idParam).max(5000).optional().default([]),
  modules: z.array(userModuleGrant).max(500).optional().default([]),
  /** Required for a Client account: the customer it belongs to. */
  customerId: idParam.nullable().optional(),
  isActive: z.boolean().optional().default(true),
};

export const updateUserRequest = z.object(userFields);
export type UpdateUserRequest = z.input<typeof updateUserRequest>;
export type UpdateUserInput = z.output<typeof updateUserRequest>;

export const createUserRequest = z.object({
  ...userFields,
  password: field.text(256, { error: MSG.password }).min(1, MSG.password).min(PASSWORD_MIN_LENGTH, MSG.passwordPolicy),
  confirmPassword: field.text(256, { error: MSG.rePassword }).min(1, MSG.rePassword),
}).refine((u) => u.password === u.confirmPassword, { message: MSG.passwordMismatch, path: ['confirmPassword'] });
export type CreateUserRequest = z.input<typeof createUserRequest>;
export type CreateUserInput = z.output<typeof createUserRequest>;

export const userIdQuery = z.object({ userId: idParam });
export const setUserStatusQuery = z.object({
  userId: idParam,
  isActive: z.enum(['true', 'false'], { error: 'isActive must be true or false' }).transform((v) => v === 'true'),
});

export const userFilters = z.object({
  role: roleSchema.optional(),
  warehouseId: idParam.optional(),
  isActive: activeFilter,
});
export const userListRequest = listRequest(userFilters);
export const userListResponse = listResponse(userListItem);

/** A module of the assignment tree in the user form. */
export interface AssignableModule {
  moduleId: number;
  moduleKey: string;
  moduleName: string;
  url: string | null;
  childModules: AssignableModule[];
}
export const assignableModuleSchema: z.ZodType<AssignableModule> = z.lazy(() =>
  z.object({
    moduleId: z.number().int(),
    moduleKey: z.string(),
    moduleName: z.string(),
    url: z.string().nullable(),
    childModules: z.array(assignableModuleSchema),
  }),
);

/** GET /Warehouse/User/GetModuleWarehouseUsers: the user form's dropdowns. */
export const moduleWarehouseUsersResponse = z.object({
  usertypes: z.array(z.string()),
  modules: z.array(z.object({ appId: z.number().int(), appKey: z.string(), appName: z.string(), modules: z.array(assignableModuleSchema) })),
  warehouses: z.array(z.object({ uniqueid: z.number().int(), warehouseId: z.number().int(), warehouseName: z.string(), warehouseCode: z.string() })),
  timezones: z.array(z.string()),
});
export type ModuleWarehouseUsersResponse = z.infer<typeof moduleWarehouseUsersResponse>;

export const customersByWarehouseQuery = z.object({ whid: idParam });
export const customersByWarehouseResponse = z.array(z.object({
  uniqueid: z.number().int(), customerId: z.number().int(), customerName: z.string(), warehouseId: z.number().int(),
}));
