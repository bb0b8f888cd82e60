// Prints the gzipped JavaScript a route loads on first visit: the entry chunk, the route's screen chunk and every
// chunk they import statically. Usage: node web/scripts/route-size.mjs [--max-kb N] [ScreenName ...] (after
// `vite build`); with --max-kb it fails when a route loads more (the build runs it for the sign-in route).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

function closure(keys) {
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) walk(dep);
  };
  keys.forEach(walk);
  return [...seen];
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const args = process.argv.slice(2);
const maxAt = args.indexOf('--max-kb');
const maxKb = maxAt >= 0 ? Number(args.splice(maxAt, 2)[1]) : Infinity;
const screens = args.length ? args : ['SignInPage'];
let over = false;
for (const screen of screens) {
  const key = Object.keys(manifest).find((k) => k.endsWith(`/${screen}.tsx`));
  if (!key) throw new Error(`No chunk for ${screen}`);
  const chunks = closure([entry, key]);
  const total = chunks.reduce((sum, k) => sum + gz(manifest[k].file), 0);
  console.log(`${screen}: ${(total / 1024).toFixed(1)} kB gzipped JavaScript in ${chunks.length} chunks`);
  for (const k of chunks) console.log(`  ${(gz(manifest[k].file) / 1024).toFixed(1).padStart(6)} kB  ${manifest[k].file}`);
  if (total / 1024 > maxKb) {
    console.error(`${screen} loads more than the ${maxKb} kB budget`);
    over = true;
  }
}
process.exit(over ? 1 : 0);
