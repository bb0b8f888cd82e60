/**
 * The 401-refresh rule (spec section 8), free of fetch and Redux so it can be tested on its own:
 * a 401 refreshes the tokens once; every request that fails while that refresh runs waits for it and is
 * retried with the new token; when the refresh fails, all of them fail and the session ends.
 */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface RefreshQueueDeps {
  /** The access token the next request would send. */
  currentAccessToken(): string | null;
  /** Calls the refresh endpoint; rejects when it fails. */
  refresh(): Promise<TokenPair>;
  /** Stores the new pair; called once per successful refresh, before any waiting request retries. */
  onRefreshed(tokens: TokenPair): void;
  /** Ends the session; called once per failed refresh. */
  onRefreshFailed(error: unknown): void;
}

export interface RefreshQueue {
  /**
   * Given the token a request was sent with and got a 401 for, resolves to the token to retry with.
   * A request whose token was already replaced by an earlier refresh retries at once without a new refresh.
   */
  tokenAfter401(usedToken: string | null): Promise<string>;
}

export function createRefreshQueue(deps: RefreshQueueDeps): RefreshQueue {
  let inFlight: Promise<string> | null = null;
  return {
    tokenAfter401(usedToken) {
      if (inFlight) return inFlight;
      const current = deps.currentAccessToken();
      if (current && current !== usedToken) return Promise.resolve(current);
      inFlight = deps
        .refresh()
        .then(
          (tokens) => {
            deps.onRefreshed(tokens);
            return tokens.accessToken;
          },
          (error: unknown) => {
            deps.onRefreshFailed(error);
            throw error;
          },
        )
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
  };
}

/** A request's outcome as far as the rule cares: did it fail with 401? */
export interface Attempt<R> {
  result: R;
  unauthorized: boolean;
}

/**
 * Runs a request with the current token; on a 401 asks the queue for a fresh token and retries once.
 * When the refresh fails the original 401 result is returned (the session is already being ended).
 */
export async function withRefresh<R>(
  queue: RefreshQueue,
  token: string | null,
  send: (token: string | null) => Promise<Attempt<R>>,
): Promise<R> {
  const first = await send(token);
  if (!first.unauthorized) return first.result;
  let fresh: string;
  try {
    fresh = await queue.tokenAfter401(token);
  } catch {
    return first.result;
  }
  return (await send(fresh)).result;
}
