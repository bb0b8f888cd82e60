// Bundles the server (with the contracts' TypeScript) into dist/main.js, or into the folder given (`node build.mjs
// cluster/dist`: the cluster suite's own copy); npm packages stay external.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => d !== '@bolx/contracts');

await build({
  entryPoints: ['src/main.ts', 'src/db/migrate-cli.ts'],
  outdir: process.argv[2] ?? 'dist',
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
