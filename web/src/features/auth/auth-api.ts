import { baseApi } from '../../lib/api/base-api';

/** The anonymous password calls of spec section 7. */
export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    sendResetLink: build.mutation<{ userId: number; message: string }, { emailOrUsername: string }>({
      query: (body) => ({ url: 'Common/ForgotPassword/SendResetLink', method: 'POST', body }),
    }),
    resetPasswordWithToken: build.mutation<{ message: string }, { userId: number; token: string; newPassword: string }>({
      query: (body) => ({ url: 'Common/ForgotPassword/Restpassword', method: 'POST', body }),
    }),
  }),
});

export const { useSendResetLinkMutation, useResetPasswordWithTokenMutation } = authApi;
