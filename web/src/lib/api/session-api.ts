import type { LoginRequest, LoginResponse } from '@bolx/contracts';
import { baseApi } from './base-api';

/** Sign-in and sign-out: the auth slice follows these calls' states. */
export const sessionApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: 'Common/Auth/login', method: 'POST', body }),
    }),
    logout: build.mutation<{ message: string }, { refreshToken: string }>({
      query: (body) => ({ url: 'Common/Auth/logout', method: 'POST', body }),
    }),
  }),
});

export const { useLoginMutation } = sessionApi;
