import { ADMIN_ROLES, type JobView } from '@bolx/contracts';
import type { Principal } from '../../platform/principal.js';
import { conflict, notFound } from '../../platform/errors.js';
import { jobView, type Jobs } from '../../platform/jobs/index.js';

/** A job's status and result, for the one user it runs for, or an administrator who sees its warehouse and client. */
export class JobService {
  constructor(private readonly deps: { jobs: Jobs }) {}

  async get(principal: Principal, jobId: number): Promise<JobView> {
    const row = await this.deps.jobs.find(jobId);
    // Someone else's job answers as a missing one: its existence is not theirs to learn.
    if (!row || !mayRead(principal, row)) throw notFound('Job');
    return jobView(row);
  }

  /** Cancels a job not yet started (its owner, or an administrator in scope); 409 once it runs or has ended. */
  async cancel(principal: Principal, jobId: number): Promise<{ message: string; data: JobView }> {
    await this.get(principal, jobId);
    const row = await this.deps.jobs.cancel(jobId);
    if (!row) throw conflict('This job has already started or ended; it can no longer be cancelled');
    return { message: 'Job cancelled', data: jobView(row) };
  }
}

function mayRead(p: Principal, row: { owner_user_id: number | null; warehouse_id: number | null; customer_id: number | null }): boolean {
  if (row.owner_user_id === p.userId) return true;
  if (!ADMIN_ROLES.includes(p.role)) return false;
  return p.scope.admits({
    ...(row.warehouse_id != null ? { warehouseId: row.warehouse_id } : {}),
    ...(row.customer_id != null ? { customerId: row.customer_id } : {}),
  });
}
