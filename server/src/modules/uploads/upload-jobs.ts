import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { QueuedJobResult } from '@bolx/contracts';
import type { Database } from '../../db/database.js';
import type { Actor } from '../../platform/actor.js';
import type { Principal } from '../../platform/principal.js';
import { AppError, forbidden, unprocessable } from '../../platform/errors.js';
import { deleteStoredFile, readStoredFile, storeFile, type ReceivedUpload } from '../../platform/files.js';
import { exactlyOnce, type Jobs } from '../../platform/jobs/index.js';
import { checkSheet } from '../../platform/sheet.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { AuthService } from '../auth/auth.service.js';
import type { SkuService } from '../skus/skus.service.js';
import type { LocationService } from '../locations/locations.service.js';
import type { ReceivingService } from '../receiving/receiving.service.js';
import type { InventoryService } from '../inventory/inventory.service.js';
import type { OrderUploadService } from '../orders/order-upload.service.js';
import type { ApiKeyService } from '../api-keys/api-keys.service.js';
import type { PalletService } from '../pallets/pallets.service.js';

/**
 * Large uploads run as background jobs: the route keeps the file (stored_file, so a restart finds it) and answers
 * 202 with the job at once; the job calls the same service method the route calls for a small upload, as the user
 * (or the customer's API key) who sent it, with their access as it is when it runs. Small uploads keep their answer in the response.
 */
export const UPLOAD_JOBS = {
  skus: 'upload.skus',
  locations: 'upload.locations',
  receivingOrder: 'upload.receiving-order',
  inventory: 'upload.inventory',
  orders: 'upload.orders',
  pallets: 'upload.pallets',
} as const;
export type UploadJobName = (typeof UPLOAD_JOBS)[keyof typeof UPLOAD_JOBS];

const uploadJobPayload = z.object({
  fileId: z.number().int().positive(),
  fileName: z.string(),
  fields: z.record(z.string(), z.string()),
  actor: z.object({ userId: z.number().nullable(), username: z.string().nullable(), ip: z.string().nullable(), requestId: z.string().nullable() }),
  /** Sent with a customer's API key: the job runs as that key (its one customer), not as the user who created it. */
  apiKeyId: z.number().int().positive().optional(),
  /** Files sent with the sheet (an orders upload's documents), kept like the sheet until the job is done with them. */
  attachments: z.array(z.object({ fileId: z.number().int().positive(), fileName: z.string() })).max(10).optional(),
});
type UploadJobPayload = z.infer<typeof uploadJobPayload>;

type Attachment = { fileName: string; bytes: Buffer };
type Work = (principal: Principal, upload: { fields: Record<string, string>; file: Attachment; documents: Attachment[] }, actor: Actor) => Promise<unknown>;

/** Every file a job keeps: its sheet and its attachments. */
const keptFiles = (payload: UploadJobPayload) => [payload.fileId, ...(payload.attachments ?? []).map((a) => a.fileId)];
const deleteKept = async (db: Parameters<typeof deleteStoredFile>[0], payload: UploadJobPayload) => {
  for (const id of keptFiles(payload)) await deleteStoredFile(db, id);
};

export function registerUploadJobs(jobs: Jobs, database: Pick<Database, 'db' | 'dialect'>, services: {
  auth: AuthService; apiKeys: ApiKeyService; skus: SkuService; locations: LocationService; receiving: ReceivingService; inventory: InventoryService;
  orderUploads: OrderUploadService; pallets: PalletService;
}): void {
  /**
   * Who the job runs as, read afresh: the API key that sent the upload (its customer alone; refused once revoked),
   * else the user who sent it (their access as it is now). A key's job never runs as the key's creator.
   */
  const principalOfJob = async (payload: UploadJobPayload, ctx: { jobId: number; ownerUserId: number | null }): Promise<Principal> => {
    if (payload.apiKeyId !== undefined) {
      const key = await services.apiKeys.principalOfKey(payload.apiKeyId);
      if (!key) throw forbidden('The API key that sent this upload has been revoked');
      return key;
    }
    const user = ctx.ownerUserId ? await services.auth.principalOfUser(ctx.ownerUserId, `job:${ctx.jobId}`) : null;
    if (!user) throw forbidden('The user who sent this upload can no longer sign in');
    return user;
  };
  const works: Record<UploadJobName, Work> = {
    [UPLOAD_JOBS.skus]: (p, u, a) => services.skus.upload(p, u, a),
    [UPLOAD_JOBS.locations]: (p, u, a) => services.locations.upload(p, { warehouseId: Number(u.fields.warehouseId), fileName: u.file.fileName, content: u.file.bytes }, a),
    [UPLOAD_JOBS.receivingOrder]: (p, u, a) => services.receiving.upload(p, u, a),
    [UPLOAD_JOBS.inventory]: (p, u, a) => services.inventory.importStock(p, u, a),
    // An orders sheet's documents are kept with each new order it makes.
    [UPLOAD_JOBS.orders]: (p, u, a) => services.orderUploads.upload(p, u, a),
    [UPLOAD_JOBS.pallets]: (p, u, a) => services.pallets.upload(p, { warehouseId: Number(u.fields.warehouseId), customerId: Number(u.fields.customerId) || undefined, ...u.file }, a),
  };
  for (const [name, work] of Object.entries(works) as [UploadJobName, Work][]) {
    jobs.register<UploadJobPayload>(name, {
      payload: uploadJobPayload,
      // The work is one all-or-nothing transaction; a crash mid-way leaves nothing, so trying again is safe.
      maxAttempts: 3,
      backoffMs: 2000,
      // Cancelled before it ran: the kept file goes with it.
      onCancel: (payload, uow) => deleteKept(uow.tx, payload),
      async run(payload, ctx) {
        try {
          // Progress is its own transaction, so before the work's (whose end a retry reads back, file gone or not).
          await ctx.progress(0, 1, `Processing ${payload.fileName}`);
          const result = await exactlyOnce(database, { id: ctx.jobId, name, ownerUserId: ctx.ownerUserId }, async () => {
            const file = await readStoredFile(database.db, payload.fileId);
            if (!file) throw unprocessable('The uploaded file is no longer kept; please upload it again');
            const documents: Attachment[] = [];
            for (const a of payload.attachments ?? []) {
              const kept = await readStoredFile(database.db, a.fileId);
              if (!kept) throw unprocessable(`${a.fileName} is no longer kept; please upload it again`);
              documents.push({ fileName: a.fileName, bytes: kept.bytes });
            }
            const principal = await principalOfJob(payload, ctx);
            const answer = await work(principal, { fields: payload.fields, file: { fileName: payload.fileName, bytes: file.bytes }, documents }, payload.actor);
            // The kept files go with the work's own commit: done means nothing is left behind.
            await inTransaction(database.db, ({ tx }) => deleteKept(tx, payload));
            return answer;
          });
          return result;
        } catch (err) {
          // A refusal (bad rows, no access) is final, as is a failure with no tries left: the file is not needed any more.
          if ((err instanceof AppError && err.status < 500) || ctx.attempt >= ctx.maxAttempts) await deleteKept(database.db, payload);
          throw err;
        }
      },
    });
  }
}

/**
 * The route's side: a file above the size where an upload goes to the background is kept and queued (202, the job
 * to follow); a smaller one (or none) runs now, as before. `scope` is checked first, so a caller outside it gets
 * its 403 now rather than from the job.
 */
export interface UploadQueue { jobs: Jobs; db: Database['db']; backgroundBytes: number }

export async function uploadNowOrQueued<T>(
  deps: UploadQueue,
  reply: FastifyReply, principal: Principal, actor: Actor,
  job: {
    name: UploadJobName; upload: ReceivedUpload; maxBytes: number; scope: () => { warehouseId?: number; customerId?: number };
    /** Files that go with the sheet (checked by the caller): kept with the job and handed to its work. */
    attachments?: Attachment[];
  },
  now: () => Promise<T>,
): Promise<T | { message: string; data: QueuedJobResult }> {
  const file = job.upload.file;
  if (!file || file.bytes.length <= deps.backgroundBytes) return now();
  const scope = job.scope();
  principal.scope.assert(scope);
  // The file itself is checked now (type, package bounds, readable): a broken file or a zip bomb is refused in the
  // answer, as a small one is; the job does the rows and the writes.
  await checkSheet(file, job.maxBytes);
  const queued = await inTransaction(deps.db, async (uow) => {
    const keep = (f: Attachment) => storeFile(uow.tx, { fileName: f.fileName, mimeType: 'application/octet-stream', bytes: f.bytes, createdBy: principal.userId });
    const stored = await keep(file);
    const attachments: NonNullable<UploadJobPayload['attachments']> = [];
    for (const a of job.attachments ?? []) attachments.push({ fileId: (await keep(a)).id, fileName: a.fileName });
    const payload: UploadJobPayload = {
      fileId: stored.id, fileName: file.fileName, fields: job.upload.fields, actor,
      ...(principal.apiKey ? { apiKeyId: principal.apiKey.id } : {}), ...(attachments.length ? { attachments } : {}),
    };
    return deps.jobs.enqueue(uow, job.name, payload, {
      ownerUserId: principal.userId, warehouseId: scope.warehouseId ?? null, customerId: scope.customerId ?? null,
    });
  });
  void reply.code(202);
  return { message: `${file.fileName} is being processed`, data: { jobId: queued.jobId, status: queued.status } };
}
