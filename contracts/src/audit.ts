import { z } from 'zod';
import { listRequest, listResponse } from './common.js';

export const auditFilters = z.object({
  entity: z.string().max(64).optional(),
  action: z.string().max(64).optional(),
  userId: z.number().int().optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
});
export const auditListRequest = listRequest(auditFilters);
export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.number().int().nullable(),
  username: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  warehouseId: z.number().int().nullable(),
  customerId: z.number().int().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
});
export const auditListResponse = listResponse(auditEntry);

export const outboxMail = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  error: z.string().nullable(),
});
export const outboxListResponse = listResponse(outboxMail);
