// The statements of the two benchmarked requests, compiled from the server's own repositories (see
// sql-capture.ts). If a repository changes its SQL, the baseline changes with it.
import { authRepository } from '../../server/src/modules/auth/auth.repository.js';
import { AUTH_RULES, THROTTLE_SETTINGS } from '../../server/src/modules/auth/auth.service.js';
import { userModuleRepository } from '../../server/src/modules/user-module/user-module.repository.js';
import { writeAudit } from '../../server/src/platform/audit.js';
import { Scope } from '../../server/src/platform/scope.js';
import { captureOne, n, s, type Engine, type SqlTemplate } from './sql-capture.js';

export interface LoginStatements {
  claimAccount: SqlTemplate;
  claimAddress: SqlTemplate;
  /** A refused claim reads its key to tell a block from attempts still being checked (then it waits). */
  getThrottleKey: SqlTemplate;
  findUserByLogin: SqlTemplate;
  clearThrottle: SqlTemplate;
  refundAddress: SqlTemplate;
  createSession: SqlTemplate;
  insertRefreshToken: SqlTemplate;
  writeAudit: SqlTemplate;
  appName: SqlTemplate;
}

/** The claim's times as slots (now, the window's start); claimSlots gives their values. */
const claimTimes = (limit: number) => ({ now: s('now'), windowStart: s('window'), limit });

/** The values of claimTimes' slots for a request arriving now. */
export function claimSlots(now = Date.now()): Record<string, string> {
  return { now: new Date(now).toISOString(), window: new Date(now - THROTTLE_SETTINGS.windowMinutes * 60_000).toISOString() };
}

/** POST /Common/Auth/login, successful path with rememberMe false (what the bench sends). */
export async function loginStatements(engine: Engine): Promise<LoginStatements> {
  return {
    claimAccount: await captureOne(engine, (db) => authRepository.claimAttempt(db, s('acct'), claimTimes(AUTH_RULES.accountFailuresBeforeBlock))),
    claimAddress: await captureOne(engine, (db) => authRepository.claimAttempt(db, s('addr'), claimTimes(AUTH_RULES.addressFailuresBeforeBlock))),
    getThrottleKey: await captureOne(engine, (db) => authRepository.getThrottle(db, [s('key')])),
    findUserByLogin: await captureOne(engine, (db) => authRepository.findUserByLogin(db, s('login'))),
    clearThrottle: await captureOne(engine, (db) => authRepository.clearThrottle(db, s('acct'))),
    refundAddress: await captureOne(engine, (db) => authRepository.refundAttempt(db, s('addr'), AUTH_RULES.addressFailuresBeforeBlock)),
    createSession: await captureOne(engine, (db) => authRepository.createSession(db, {
      id: s('sid'), userId: n('uid'), expiresAt: s('expires'), ip: s('ip'), userAgent: s('ua'), remember: false,
    })),
    insertRefreshToken: await captureOne(engine, (db) => authRepository.insertRefreshToken(db, s('sid'), s('rthash'))),
    writeAudit: await captureOne(engine, (db) => writeAudit(db, { userId: n('uid'), username: s('uname'), ip: s('ip'), requestId: s('rid') },
      { action: 'login', entity: 'user', entityId: n('uid'), after: { sessionId: s('sid'), rememberMe: false } })),
    appName: await captureOne(engine, (db) => authRepository.appName(db, n('appid'))),
  };
}

export interface ReadStatements {
  findActiveSessionUser: SqlTemplate;
  accessRows: SqlTemplate;
  accessRowsClient: SqlTemplate;
  /** The two data queries inline the caller's scope as literals, so they are compiled per scope. */
  forScope(warehouses: number[] | 'all', customers: number[] | 'all'): Promise<{ warehouses: SqlTemplate; customers: SqlTemplate }>;
}

/** GET /Common/UserModule/GetWarehouseClient. */
export async function readStatements(engine: Engine): Promise<ReadStatements> {
  const cache = new Map<string, Promise<{ warehouses: SqlTemplate; customers: SqlTemplate }>>();
  return {
    findActiveSessionUser: await captureOne(engine, (db) => authRepository.findActiveSessionUser(db, s('sid'), n('uid'))),
    accessRows: await captureOne(engine, (db) => authRepository.accessRows(db, n('uid'), null)),
    accessRowsClient: await captureOne(engine, (db) => authRepository.accessRows(db, n('uid'), n('client'))),
    forScope(warehouses, customers) {
      const key = JSON.stringify([warehouses, customers]);
      let found = cache.get(key);
      if (!found) {
        const scope = new Scope(warehouses, customers);
        found = (async () => ({
          warehouses: await captureOne(engine, (db) => userModuleRepository.warehousesWithOccupancy(db, scope)),
          customers: await captureOne(engine, (db) => userModuleRepository.customersByWarehouse(db, scope)),
        }))();
        cache.set(key, found);
      }
      return found;
    },
  };
}
