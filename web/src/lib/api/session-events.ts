import { createAction } from '@reduxjs/toolkit';
import type { TokenPair } from './refresh-queue';

/**
 * Actions the api layer raises about the session. They live here, not in the auth slice, so the api base does
 * not import the store (the auth slice listens to them instead).
 */
export const sessionRefreshed = createAction<TokenPair>('session/refreshed');
export const sessionExpired = createAction('session/expired');

/** The part of the root state the api base reads. */
export interface SessionTokensView {
  auth: { accessToken: string | null; refreshtoken: string | null };
}
