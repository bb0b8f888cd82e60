/** Who is doing something, carried from the request into services for audit rows and ledger entries. */
export interface Actor {
  userId: number | null;
  username: string | null;
  ip: string | null;
  requestId: string | null;
}

export const systemActor = (what = 'system'): Actor => ({ userId: null, username: what, ip: null, requestId: null });
