import {
  apiErrorSchema, changePasswordRequest, loginRequest, logoutRequest, loginResponse, messageOnly, profileSchema, refreshRequest,
  refreshResponse, resetWithTokenRequest, sendPinResponse, sendResetLinkRequest, sendResetLinkResponse, updateProfileRequest,
  verifyPinRequest, mutationResult,
} from '@bolx/contracts';
import { PUBLIC, actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const signedIn: RoutePolicy = { access: 'authenticated', scope: 'self' };
const tags = ['Auth'];

export const authRoutes: RouteModule = (api, { auth }) => {
  api.post('/Common/Auth/login', {
    schema: { tags, summary: 'Sign in with username or e-mail', body: loginRequest, response: { 200: loginResponse, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema } },
    config: { policy: PUBLIC },
  }, (req) => auth.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }, actorOf(req)));

  api.post('/Common/Auth/refresh-token', {
    schema: { tags, summary: 'Rotate a refresh token', body: refreshRequest, response: { 200: refreshResponse, 400: apiErrorSchema, 401: apiErrorSchema } },
    config: { policy: PUBLIC },
  }, (req) => auth.refresh(req.body.refreshToken, actorOf(req)));

  api.post('/Common/Auth/logout', {
    schema: { tags, summary: 'End this session', body: logoutRequest, response: { 200: messageOnly, ...authErrors } },
    config: { policy: signedIn },
  }, async (req) => {
    await auth.logout(principalOf(req), req.body?.refreshToken, actorOf(req));
    return { message: 'Signed out' };
  });

  api.post('/Common/ForgotPassword/SendResetLink', {
    schema: { tags, summary: 'E-mail a single-use reset link', body: sendResetLinkRequest, response: { 200: sendResetLinkResponse, 400: apiErrorSchema, 429: apiErrorSchema } },
    config: { policy: PUBLIC },
  }, (req) => auth.sendResetLink(req.body.emailOrUsername, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }, actorOf(req)));

  api.post('/Common/ForgotPassword/Restpassword', {
    schema: { tags, summary: 'Set a new password with a reset link', body: resetWithTokenRequest, response: { 200: messageOnly, 400: apiErrorSchema, 422: apiErrorSchema } },
    config: { policy: PUBLIC },
  }, (req) => auth.resetWithToken(req.body, actorOf(req)));

  api.put('/Common/Auth/reset-password', {
    schema: { tags, summary: 'Change own password, or an administrator resets a user’s', body: changePasswordRequest, response: { 200: messageOnly, 422: apiErrorSchema, ...authErrors } },
    config: { policy: signedIn },
  }, (req) => auth.changePassword(principalOf(req), req.body, actorOf(req)));

  api.get('/Common/Auth/Profile', {
    schema: { tags, summary: 'The caller’s profile', response: { 200: profileSchema, ...authErrors } },
    config: { policy: signedIn },
  }, (req) => auth.getProfile(principalOf(req)));

  api.put('/Common/Auth/Profile', {
    schema: { tags, summary: 'Update the caller’s profile', body: updateProfileRequest, response: { 200: mutationResult(profileSchema), 409: apiErrorSchema, ...authErrors } },
    config: { policy: signedIn },
  }, (req) => auth.updateProfile(principalOf(req), req.body, actorOf(req)));

  api.post('/Common/Auth/SendEmailPin', {
    schema: { tags, summary: 'E-mail a 6-digit verification pin', response: { 200: sendPinResponse, ...authErrors } },
    config: { policy: signedIn },
  }, (req) => auth.sendEmailPin(principalOf(req), actorOf(req)));

  api.post('/Common/Auth/VerifyEmailPin', {
    schema: { tags, summary: 'Verify the e-mail address with the pin', body: verifyPinRequest, response: { 200: messageOnly, 422: apiErrorSchema, ...authErrors } },
    config: { policy: signedIn },
  }, (req) => auth.verifyEmailPin(principalOf(req), req.body.pin, actorOf(req)));
};
