import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importEdges, readTree, type ImportEdge } from './support/import-graph.js';

/**
 * The server's layering, checked over the import graph of src/ (DESIGN.md, Layout): a module calls another
 * module's service, never its repository; db/ (schema, migrations, seed) knows no module; and no module imports
 * the composition root (services.ts), whose types would otherwise run a cycle through every service.
 */
export function serverViolations(edges: ImportEdge[]): string[] {
  const found: string[] = [];
  for (const { from, to } of edges) {
    const fromModule = /^modules\/([^/]+)\//.exec(from)?.[1];
    const toRepository = /^modules\/([^/]+)\/[^/]+\.repository\.ts$/.exec(to)?.[1];
    if (fromModule && toRepository && fromModule !== toRepository) found.push(`${from} imports ${to}: another module's repository (call its service)`);
    if (from.startsWith('db/') && to.startsWith('modules/')) found.push(`${from} imports ${to}: db/ must not depend on a module`);
    if ((from.startsWith('modules/') || from.startsWith('platform/')) && to === 'services.ts') found.push(`${from} imports services.ts: take ServiceDeps from platform/service-deps.ts`);
  }
  return found;
}


describe('server boundaries', () => {
  it('src/ keeps them', () => {
    const root = fileURLToPath(new URL('../src', import.meta.url));
    expect(serverViolations(importEdges(readTree(root)))).toEqual([]);
  });

  it('the checker finds each planted violation', () => {
    const planted = {
      'modules/orders/orders.service.ts': "import { skuRepository } from '../skus/skus.repository.js';\nimport type { ServiceDeps } from '../../services.js';",
      'modules/orders/orders.repository.ts': 'export const ordersRepository = {};',
      'modules/orders/orders.routes.ts': "import { ordersRepository } from './orders.repository.js';",
      'modules/skus/skus.repository.ts': 'export const skuRepository = {};',
      'modules/skus/skus.service.ts': 'export class SkuService {}',
      'db/seed/demo.ts': "import { SkuService } from '../../modules/skus/skus.service.js';",
      'services.ts': "export type { ServiceDeps } from './platform/service-deps.js';",
      'platform/service-deps.ts': 'export interface ServiceDeps {}',
    };
    expect(serverViolations(importEdges(planted))).toEqual([
      "modules/orders/orders.service.ts imports modules/skus/skus.repository.ts: another module's repository (call its service)",
      'modules/orders/orders.service.ts imports services.ts: take ServiceDeps from platform/service-deps.ts',
      'db/seed/demo.ts imports modules/skus/skus.service.ts: db/ must not depend on a module',
    ]);
  });
});
