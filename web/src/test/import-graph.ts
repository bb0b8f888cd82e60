import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/**
 * The import graph of a source tree, as plain data, so a boundaries test can check the real tree and, with the same
 * checker, a small graph of fake files that plants each violation. A copy of server/test/support/import-graph.ts (the two workspaces share no test code).
 */
export interface ImportEdge { from: string; to: string }

const SPECIFIER = /(?:\bimport\s*(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

/** Relative imports of each file, resolved to paths under the root (`a/b.ts`, extensions as written in the tree). */
export function importEdges(files: Record<string, string>): ImportEdge[] {
  const known = new Set(Object.keys(files));
  const edges: ImportEdge[] = [];
  for (const [from, source] of Object.entries(files)) {
    for (const match of source.matchAll(SPECIFIER)) {
      const spec = match[1]!;
      if (!spec.startsWith('.')) continue;
      const bare = posix.normalize(posix.join(posix.dirname(from), spec));
      edges.push({ from, to: resolve(bare, known) });
    }
  }
  return edges;
}

/** `x.js` is `x.ts` in the source; a folder import is its index; unknown targets keep their written path. */
function resolve(bare: string, known: Set<string>): string {
  const stem = bare.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [bare, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}/index.tsx`]) {
    if (known.has(candidate)) return candidate;
  }
  return bare;
}

/** Every .ts/.tsx file under `root`, keyed by its posix path relative to it. */
export function readTree(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files[relative(root, path).split(sep).join('/')] = readFileSync(path, 'utf8');
      }
    }
  };
  walk(root);
  return files;
}
