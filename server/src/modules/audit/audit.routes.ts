import { ADMIN_ROLES, auditListRequest, auditListResponse, listRequest, outboxListResponse } from '@bolx/contracts';
import { z } from 'zod';
import { authErrors, type RouteModule } from '../../http.js';

const adminsOnly = { access: 'authenticated', roles: ADMIN_ROLES, scope: 'none' } as const;

export const auditRoutes: RouteModule = (api, { audit }) => {
  api.post('/Common/Audit/GetAuditLogs', {
    schema: { tags: ['Audit'], summary: 'The audit trail, filtered and paged', body: auditListRequest, response: { 200: auditListResponse, ...authErrors } },
    config: { policy: adminsOnly },
  }, (req) => audit.list(req.body));

  api.post('/Common/Mail/GetOutbox', {
    schema: { tags: ['Audit'], summary: 'Mail written by the system (the outbox when no SMTP server is set)', body: listRequest(z.object({})), response: { 200: outboxListResponse, ...authErrors } },
    config: { policy: adminsOnly },
  }, (req) => audit.outbox(req.body));
};
