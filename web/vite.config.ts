import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { fileURLToPath } from 'node:url';

const API = 'http://localhost:8080';

/**
 * Vendor chunks: the React stack, i18n and the heavy, screen-specific libraries each get a chunk of their own,
 * so a deploy that changes app code keeps the vendor files cached and the sign-in route never loads echarts or
 * pro-components. antd is left to Rollup's own splitting: one antd chunk would make the sign-in page download
 * every antd component the whole app uses.
 */
function vendorChunk(id: string): string | undefined {
  if (!id.includes('/node_modules/')) return undefined;
  if (/\/node_modules\/(echarts|zrender)\//.test(id)) return 'echarts';
  if (/\/node_modules\/@ant-design\/pro-/.test(id)) return 'pro-components';
  if (/\/node_modules\/(react|react-dom|scheduler|react-router|react-redux|@reduxjs|redux|redux-thunk|immer|reselect|use-sync-external-store)\//.test(id)) return 'react';
  if (/\/node_modules\/(react-intl|@formatjs|intl-messageformat)\//.test(id)) return 'intl';
  return undefined;
}

/**
 * Marks each zod schema built at the top level of a contracts module (`const x = z.…`) as pure, so a schema the
 * web never uses is dropped together with the zod code behind it: importing MSG or webRolesOf must not put zod
 * into the sign-in route. (Contracts could carry the annotations itself; until then this keeps the route small.)
 */
function pureContractSchemas(): Plugin {
  return {
    name: 'bolx:pure-contract-schemas',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/contracts\/src\/[^/]+\.ts$/.test(id)) return null;
      return { code: code.replace(/(=\s*)(z\.)/g, '$1/* @__PURE__ */ $2'), map: null };
    },
  };
}

export default defineConfig({
  // Unit tests cover plain TypeScript (slices, helpers); the React plugin is only needed to serve and build.
  plugins: process.env.VITEST ? [] : [pureContractSchemas(), react()],
  resolve: {
    alias: { 'resize-observer-polyfill': fileURLToPath(new URL('./src/lib/shims/resize-observer.ts', import.meta.url)) },
  },
  base: '/',
  server: {
    port: 5173,
    // Routing on the server is case-insensitive; app routes such as /WarehouseSelection must not match.
    proxy: {
      '^/(Common|common|COMMON|Warehouse|warehouse|WAREHOUSE|API|api)/': { target: API, changeOrigin: true },
      '/hubs': { target: API, changeOrigin: true, ws: true },
      '/docs': { target: API, changeOrigin: true },
      '/health': { target: API, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      output: { manualChunks: vendorChunk },
      // The contracts package only declares schemas and constants: a module the web does not use is left out.
      treeshake: {
        moduleSideEffects: (id) => !id.includes('/contracts/src/'),
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
