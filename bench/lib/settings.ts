// Every knob of the bench, from the environment, with defaults that keep a full run to a few minutes on a
// 2-core machine.
import { existsSync } from 'node:fs';

const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
};

const list = (name: string, fallback: string): string[] =>
  (process.env[name] || fallback).split(',').map((e) => e.trim()).filter(Boolean);

/** The socket directory of a PostgreSQL server on this machine (Debian's), when its socket for `port` is there. */
const PG_SOCKET_DIR = '/var/run/postgresql';

function viaLocalSocket(url: string): string {
  if (process.env.BENCH_PG_SOCKET === '0') return url;
  const parsed = new URL(url);
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname) && !parsed.searchParams.has('host');
  if (!local || !existsSync(`${PG_SOCKET_DIR}/.s.PGSQL.${parsed.port || '5432'}`)) return url;
  parsed.searchParams.set('host', PG_SOCKET_DIR); // node-postgres: a host that is a directory is a Unix socket's
  return parsed.toString();
}

export const settings = {
  /** Seconds of measured load per server per case, split over `rounds`. */
  seconds: num('BENCH_SECONDS', 8),
  /**
   * Measured rounds per case, alternating which server goes first (bare-app, app-bare, …), so a burst of
   * other work on a shared machine lands on both sides rather than on one.
   */
  rounds: Math.max(1, Math.round(num('BENCH_ROUNDS', 4))),
  /** Seconds of unmeasured load first (JIT, statement caches, pool connections). */
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 2),
  connections: num('BENCH_CONNECTIONS', 20),
  /** Runs of the startup measurement; the median is reported. */
  startupRuns: num('BENCH_STARTUP_RUNS', 5),
  /** The whole run is stopped (and cleaned up) after this long, whatever happens. */
  timeoutSeconds: num('BENCH_TIMEOUT_SECONDS', 1800),
  /** The app's log level under load; `info` is what `npm start` runs with (one line per request). */
  appLogLevel: process.env.BENCH_LOG_LEVEL || 'info',
  /** Pool size for both servers on PostgreSQL (the server's default DB_POOL_SIZE). */
  poolSize: num('BENCH_POOL_SIZE', 10),
  engines: list('BENCH_ENGINES', 'sqlite,postgres'),
  /**
   * Which cases to run: read (GetWarehouseClient), login, startup, receive (ReceiveItem + Putaway), move
   * (MoveItems), soh (GetStockOnHand over a large ledger), masterdata (GetAllSkus and GetUsers over a large
   * catalogue and user base), hub (real-time clients), asexpected (ReceiveAsExpected of a large order, created to
   * closed in one request), orders (issue 12's allocation batch and single order create+allocate), floor (issue 13's
   * ship confirm and released→shipped flow of a large order, pickers at once, a large pick list PDF), billing
   * (issue 16's month's billing run over 1M ledger rows and the live unbilled accrual), reports (issue 17: every report over a year of 100k orders and 1M ledger
   * rows), cluster (issue 19: three
   * nodes behind HAProxy against one on PostgreSQL for the read and stock-write loads, and the hub across nodes).
   */
  cases: list('BENCH_CASES', 'read,login,startup,receive,move,soh,asexpected,masterdata,orders,floor,billing,reports,hub,cluster'),
  /** The receive-as-expected case: lines per order, and orders received (each once) per server. */
  asExpectedLines: Math.round(num('BENCH_ASEXPECTED_LINES', 750)),
  asExpectedRuns: Math.round(num('BENCH_ASEXPECTED_RUNS', 5)),
  /** Receiving orders / stock places the inventory cases spread their load over (round-robin). */
  inventorySlots: Math.round(num('BENCH_INVENTORY_SLOTS', 20)),
  /**
   * The stock-on-hand case: ledger rows and the balance rows they sum to. The list reads balances, so their
   * number is what weighs: 20,000 is some 20 lots or pallets in each of the demo's ~1,000 storage locations,
   * with 50 movements each.
   */
  sohLedgerRows: Math.round(num('BENCH_SOH_LEDGER_ROWS', 1_000_000)),
  sohBalances: Math.round(num('BENCH_SOH_BALANCES', 20_000)),
  /** "Light concurrency": screens open at once on the stock list. */
  sohConnections: num('BENCH_SOH_CONNECTIONS', 4),
  /** The master-data case: SKUs (over the demo's six clients) and users (over its warehouses and clients) seeded. */
  masterdataSkus: Math.round(num('BENCH_MASTERDATA_SKUS', 100_000)),
  masterdataUsers: Math.round(num('BENCH_MASTERDATA_USERS', 10_000)),
  /** Admin screens open at once on the SKU or user list. */
  masterdataConnections: num('BENCH_MASTERDATA_CONNECTIONS', 4),
  /**
   * The orders case: a batch of `batchOrders` orders × `batchLines` lines over `batchSkus` SKUs allocated in one
   * request, `orderRounds` times; then `orderRuns` single orders created and allocated one at a time (a run takes a
   * few milliseconds, so its median over 20 moved 9–41 % between rounds on a quiet machine: 300 hold it).
   */
  orders: {
    batchOrders: Math.round(num('BENCH_ORDERS_BATCH_ORDERS', 1000)),
    batchLines: Math.round(num('BENCH_ORDERS_BATCH_LINES', 5)),
    batchSkus: Math.round(num('BENCH_ORDERS_BATCH_SKUS', 2000)),
    orderRounds: Math.round(num('BENCH_ORDERS_ROUNDS', 2)),
    orderRuns: Math.round(num('BENCH_ORDERS_RUNS', 300)),
  },
  /**
   * The floor case: one order of `shipLines` lines released to shipped (a carton per `linesPerCarton` lines);
   * `pickers` jobs of `pickLines` stops picked at once, their pick lists printed first (`printRuns` times).
   */
  floor: {
    shipLines: Math.round(num('BENCH_FLOOR_SHIP_LINES', 750)),
    linesPerCarton: Math.round(num('BENCH_FLOOR_LINES_PER_CARTON', 50)),
    pickers: Math.round(num('BENCH_FLOOR_PICKERS', 8)),
    pickLines: Math.round(num('BENCH_FLOOR_PICK_LINES', 125)),
    printRuns: Math.round(num('BENCH_FLOOR_PRINT_RUNS', 3)),
  },
  /** The billing case: balances of one client and ledger rows per balance in the month (1M rows by default). */
  billing: {
    balances: Math.round(num('BENCH_BILLING_BALANCES', 20_000)),
    rowsPerBalance: Math.round(num('BENCH_BILLING_ROWS_PER_BALANCE', 50)),
  },
  /**
   * The reports case (issue 17): one year of one warehouse with `orders` orders and `ledgerRows` ledger rows, each
   * report timed `runs` times. The sizes are the default; BENCH_REPORTS_ORDERS / _LEDGER_ROWS make a quick run.
   */
  reports: {
    orders: Math.round(num('BENCH_REPORTS_ORDERS', 100_000)),
    ledgerRows: Math.round(num('BENCH_REPORTS_LEDGER_ROWS', 1_000_000)),
    runs: Math.round(num('BENCH_REPORTS_RUNS', 5)),
  },
  /**
   * PostgreSQL server to use; the bench makes and drops its own database (or schema) there. A server on this machine
   * is reached through its Unix socket when it has one (BENCH_PG_SOCKET=0: TCP as given): a request's statements are
   * each a round trip, and a socket's is cheaper than loopback TCP's. The app and the bare server share the URL.
   */
  pgUrl: viaLocalSocket(process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'),
  ci: !!process.env.CI,
  /** The demo user of the authenticated read: not a Super Administrator, so the scope queries run. */
  user: { username: 'manager', password: 'bolx-demo-manager' },
  targets: { readRatio: 0.5, startupMs: 3000, inventoryRatio: 0.4, sohP99Ms: 25, masterdataP99Ms: 50, hubP99Ms: 250, asExpectedMs: 750, allocationBatchMs: 5000, orderRatio: 0.4, shipConfirmMs: 1000, shipConfirmStatements: 60, picksPerSecond: 300, pickListMs: 2000, billingRunMs: 10_000, billingAccrualMs: 200, reportP99Ms: 1000 },
};

export type Settings = typeof settings;
