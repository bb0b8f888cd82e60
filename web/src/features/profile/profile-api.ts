import type { Profile } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';

export interface ProfileUpdate {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string | null;
  timezone: string;
}

/** The signed-in user's own profile, password and e-mail verification. */
export const profileApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<Profile, void>({
      query: () => 'Common/Auth/Profile',
      providesTags: ['Profile'],
    }),
    updateProfile: build.mutation<{ message: string; data: Profile }, ProfileUpdate>({
      query: (body) => ({ url: 'Common/Auth/Profile', method: 'PUT', body }),
      invalidatesTags: ['Profile'],
    }),
    changePassword: build.mutation<{ message: string }, { userId: number; previousPassword: string; newPassword: string }>({
      query: (body) => ({ url: 'Common/Auth/reset-password', method: 'PUT', body }),
    }),
    sendEmailPin: build.mutation<{ message: string; expiresInSeconds: number }, void>({
      query: () => ({ url: 'Common/Auth/SendEmailPin', method: 'POST' }),
    }),
    verifyEmailPin: build.mutation<{ message: string }, { pin: string }>({
      query: (body) => ({ url: 'Common/Auth/VerifyEmailPin', method: 'POST', body }),
      invalidatesTags: ['Profile'],
    }),
  }),
});

export const {
  useGetProfileQuery, useUpdateProfileMutation, useChangePasswordMutation, useSendEmailPinMutation, useVerifyEmailPinMutation,
} = profileApi;
