// `npm run test:pg [-- files…]`: the server suite (or the files named) on PostgreSQL (TEST_DATABASE_URL, or the local
// cluster with trust auth).
import { spawnSync } from 'node:child_process';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const files = process.argv.slice(2);
const r = spawnSync('npm', ['run', 'test', '-w', 'server', ...(files.length ? ['--', ...files] : [])], { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } });
process.exit(r.status ?? 1);
