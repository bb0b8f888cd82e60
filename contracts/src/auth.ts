import { z } from 'zod';
import { field } from './fields.js';
import { MSG, PIN_LENGTH, PASSWORD_MIN_LENGTH } from './messages.js';

export const loginRequest = z.object({
  username: field.text(254, { error: MSG.username }).trim().min(1, MSG.username),
  password: field.text(256, { error: MSG.password }).min(1, MSG.password),
  rememberMe: z.boolean().optional().default(false),
});
export type LoginRequest = z.input<typeof loginRequest>;

export const loginResponse = z.object({
  accesstoken: z.string(),
  refreshtoken: z.string(),
  username: z.string(),
  usertype: z.string(),
  userid: z.number().int(),
  appName: z.string().nullable(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const refreshRequest = z.object({ refreshToken: field.text(512).min(1) });
export const logoutRequest = z.object({ refreshToken: field.text(512).optional() }).optional();
export const refreshResponse = z.object({ accesstoken: z.string(), refreshtoken: z.string() });
export type RefreshResponse = z.infer<typeof refreshResponse>;

export const sendResetLinkRequest = z.object({
  emailOrUsername: field.text(254, { error: MSG.username }).trim().min(1, MSG.username),
});
/** userId 0: not found ('Invalid Email/Username!'); any other value only says a link went out — never the account's id. */
export const sendResetLinkResponse = z.object({ userId: z.number().int(), message: z.string() });

const newPassword = field.text(256, { error: MSG.newPassword }).min(1, MSG.newPassword).min(PASSWORD_MIN_LENGTH, MSG.passwordPolicy);

/** Completes the e-mailed reset link: /reset-password?userId=…&token=… */
export const resetWithTokenRequest = z.object({
  userId: field.id(),
  token: field.text(256).min(1),
  newPassword,
});

/** PUT /Common/Auth/reset-password: change one's own password, or an administrator resets a user's. */
export const changePasswordRequest = z.object({
  userId: field.id(),
  previousPassword: field.text(256).optional(),
  newPassword,
});

export const sendPinResponse = z.object({ message: z.string(), expiresInSeconds: z.number().int() });
export const verifyPinRequest = z.object({
  pin: field.text(PIN_LENGTH, { error: MSG.pinLength }).regex(new RegExp(`^\\d{${PIN_LENGTH}}$`), MSG.pinLength),
});

export const profileSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  timezone: z.string(),
  usertype: z.string(),
  emailVerified: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;
export const updateProfileRequest = z.object({
  firstName: field.text(100, { error: MSG.firstName }).trim().min(1, MSG.firstName),
  lastName: field.text(100, { error: MSG.lastName }).trim().min(1, MSG.lastName),
  email: field.text(254, { error: MSG.email }).trim().min(1, MSG.email).email(MSG.emailFormat),
  phone: field.text(40).trim().regex(/^\+?[0-9 ()-]{7,20}$/, MSG.phoneValid).nullable().optional(),
  timezone: field.text(64).min(1),
});
