/** A call's arguments with its user action's Idempotency-Key (lib/action-key.ts). */
export type Keyed<A> = A & { idempotencyKey: string };

/** A POST carrying its action's key as the Idempotency-Key header, never in the body. */
export const keyed = <A extends { idempotencyKey: string }>(url: string, { idempotencyKey, ...body }: A) => ({
  url, method: 'POST' as const, body, headers: { 'Idempotency-Key': idempotencyKey },
});
