import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importEdges, readTree, type ImportEdge } from './import-graph';

/**
 * The web app's layering, checked over the import graph of src/ (DESIGN.md, Layout): a feature never imports
 * another feature (shared pieces live in components/ or lib/); features, lib/ and components/ never import app/
 * (the shell that assembles them: store, router, layout; session and header state live in lib/); and lib/ and
 * components/ never import a feature.
 */
export function webViolations(edges: ImportEdge[]): string[] {
  const found: string[] = [];
  for (const { from, to } of edges) {
    const fromFeature = /^features\/([^/]+)\//.exec(from)?.[1];
    const toFeature = /^features\/([^/]+)\//.exec(to)?.[1];
    if (fromFeature && toFeature && fromFeature !== toFeature) found.push(`${from} imports ${to}: another feature (move the shared piece to components/ or lib/)`);
    const layer = /^(lib|components|features)\//.exec(from)?.[1];
    const target = /^(features|app)\//.exec(to)?.[1];
    if (layer && target && !(layer === 'features' && target === 'features')) found.push(`${from} imports ${to}: ${layer}/ must not depend on ${target}/`);
  }
  return found;
}

describe('web boundaries', () => {
  it('src/ keeps them', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    expect(webViolations(importEdges(readTree(root)))).toEqual([]);
  });

  it('the checker finds each planted violation', () => {
    const planted = {
      'features/orders/pages/OrdersPage.tsx': "import { SkuPicker } from '../../skus/components/SkuPicker';\nimport { useT } from '../../../lib/i18n/use-t';",
      'features/orders/orders-api.ts': "import { baseApi } from '../../lib/api/base-api';\nimport { useAppSelector } from '../../app/hooks';",
      'features/skus/components/SkuPicker.tsx': "import { StatusTag } from '../../../components/StatusTag';",
      'components/StatusTag.tsx': "import { selectAuth } from '../app/state/selectors';",
      'components/data-table/Table.tsx': "import {\n  ordersApi,\n} from '../../features/orders/orders-api';",
      'lib/i18n/use-t.ts': "import type { RootState } from '../../app/store';",
      'lib/api/base-api.ts': "export const baseApi = {};",
      'app/store.ts': "import { baseApi } from '../lib/api/base-api';\nimport { ordersApi } from '../features/orders/orders-api';",
      'app/state/selectors.ts': 'export const selectAuth = 1;',
    };
    expect(webViolations(importEdges(planted))).toEqual([
      "features/orders/pages/OrdersPage.tsx imports features/skus/components/SkuPicker.tsx: another feature (move the shared piece to components/ or lib/)",
      'features/orders/orders-api.ts imports app/hooks: features/ must not depend on app/',
      'components/StatusTag.tsx imports app/state/selectors.ts: components/ must not depend on app/',
      'components/data-table/Table.tsx imports features/orders/orders-api.ts: components/ must not depend on features/',
      'lib/i18n/use-t.ts imports app/store.ts: lib/ must not depend on app/',
    ]);
  });
});
