import { z } from 'zod';
import { field } from './fields.js';
import { listRequest, listResponse } from './common.js';

export const auditFilters = z.object({
  entity: field.text(64).optional(),
  action: field.text(64).optional(),
  userId: field.id().optional(),
  from: field.text(40).optional(),
  to: field.text(40).optional(),
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
