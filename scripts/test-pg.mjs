// `npm run test:pg`: the server suite on PostgreSQL (TEST_DATABASE_URL, or the local cluster with trust auth).
import { spawnSync } from 'node:child_process';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const r = spawnSync('npm', ['run', 'test', '-w', 'server'], { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } });
process.exit(r.status ?? 1);
