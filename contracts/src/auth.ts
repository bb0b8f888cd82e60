import { z } from 'zod';
import { MSG, PIN_LENGTH, PASSWORD_MIN_LENGTH } from './messages.js';

export const loginRequest = z.object({
  username: z.string({ error: MSG.username }).trim().min(1, MSG.username).max(254),
  password: z.string({ error: MSG.password }).min(1, MSG.password).max(256),
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

export const refreshRequest = z.object({ refreshToken: z.string().min(1).max(512) });
export const refreshResponse = z.object({ accesstoken: z.string(), refreshtoken: z.string() });
export type RefreshResponse = z.infer<typeof refreshResponse>;

export const sendResetLinkRequest = z.object({
  emailOrUsername: z.string({ error: MSG.username }).trim().min(1, MSG.username).max(254),
});
/** userId 0: not found ('Invalid Email/Username!'); any other value only says a link went out — never the account's id. */
export const sendResetLinkResponse = z.object({ userId: z.number().int(), message: z.string() });

const newPassword = z.string({ error: MSG.newPassword }).min(1, MSG.newPassword).min(PASSWORD_MIN_LENGTH, MSG.passwordPolicy).max(256);

/** Completes the e-mailed reset link: /reset-password?userId=…&token=… */
export const resetWithTokenRequest = z.object({
  userId: z.number().int().positive(),
  token: z.string().min(1).max(256),
  newPassword,
});

/** PUT /Common/Auth/reset-password: change one's own password, or an administrator resets a user's. */
export const changePasswordRequest = z.object({
  userId: z.number().int().positive(),
  previousPassword: z.string().max(256).optional(),
  newPassword,
});

export const sendPinResponse = z.object({ message: z.string(), expiresInSeconds: z.number().int() });
export const verifyPinRequest = z.object({
  pin: z.string({ error: MSG.pinLength }).regex(new RegExp(`^\\d{${PIN_LENGTH}}$`), MSG.pinLength),
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
  firstName: z.string({ error: MSG.firstName }).trim().min(1, MSG.firstName).max(100),
  lastName: z.string({ error: MSG.lastName }).trim().min(1, MSG.lastName).max(100),
  email: z.string({ error: MSG.email }).trim().min(1, MSG.email).email(MSG.emailFormat).max(254),
  phone: z.string().trim().regex(/^\+?[0-9 ()-]{7,20}$/, MSG.phoneValid).nullable().optional(),
  timezone: z.string().min(1).max(64),
});
