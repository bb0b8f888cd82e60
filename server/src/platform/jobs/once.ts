import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { RequestTransaction } from '../request-transaction.js';

/**
 * Runs a job's work at most once to completion, however often the job is taken up: the work's transactions join
 * one transaction keyed `job:<id>` (the Idempotency-Key machinery), which stores its answer as it commits. A job
 * taken up again after its worker died between that commit and recording the job's success finds the stored
 * answer and returns it instead of doing the work twice (an inventory import posted twice would double stock); it
 * looks first, as an import is too costly to run only to learn it was done. Two workers running it at once (one
 * taken for dead): the second to commit has its work rolled back and returns the first's answer.
 */
export async function exactlyOnce<T>(deps: { db: Db; dialect: Dialect }, job: { id: number; name: string; ownerUserId: number | null }, work: () => Promise<T>): Promise<T> {
  const keyed = new RequestTransaction({ ...deps, waitMs: 5000 }, {
    userId: job.ownerUserId ?? 0, key: `job:${job.id}`, method: 'JOB', path: job.name, requestHash: 'job',
  }, { lookFirst: true });
  const answerOf = (taken: { responseJson: string | null }) => (taken.responseJson == null ? null : JSON.parse(taken.responseJson)) as T;
  return keyed.run(async () => {
    const taken = await keyed.begin();
    if (taken) return answerOf(taken);
    try {
      const result = await work();
      const first = await keyed.commit({ statusCode: 200, body: JSON.stringify(result ?? null) });
      return first ? answerOf(first) : result;
    } catch (err) {
      await keyed.abort();
      throw err;
    }
  });
}
