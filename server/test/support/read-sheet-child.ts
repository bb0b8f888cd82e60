import { readFileSync } from 'node:fs';
import { readSheet } from '../../src/platform/sheet.js';

/**
 * Reads one uploaded file in a fresh process (run with `node --import tsx`), so its memory figures are this
 * read's alone: prints {status, message, growthMb} — the resident set's peak during the read over what it
 * was just before, counting the kernel's own peak (maxRSS) too, which can only overstate it.
 */
const [path, fileName] = process.argv.slice(2);
const bytes = readFileSync(path);
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 1);
const spec = { columns: ['SKU'], required: ['SKU'], maxRows: 50_000, noun: 'rows', maxBytes: 20 * 1024 * 1024 } as const;
const outcome = await readSheet({ fileName, bytes }, spec).then(
  () => ({ status: 200, message: 'read' }),
  (err: { status?: number; message: string }) => ({ status: err.status ?? 500, message: err.message }),
);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
process.stdout.write(JSON.stringify({ ...outcome, growthMb: (peak - before) / 2 ** 20 }));
