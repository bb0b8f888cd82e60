import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@bolx/contracts';
import { declareFileRoutes } from './access.js';

const API_PREFIXES = ['/common/', '/warehouse/', '/api/', '/hubs/', '/docs', '/health', '/ready', '/metrics'];

/**
 * Serves the built web app. Any other GET that is not an API path gets index.html (the SPA's router
 * decides); unknown API paths get the API_ERROR 404.
 */
export async function registerWeb(app: FastifyInstance, root: string | undefined): Promise<void> {
  const indexFile = root ? join(root, 'index.html') : undefined;
  const indexHtml = indexFile && existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  if (indexHtml) {
    await app.register(async (files) => {
      declareFileRoutes(files);
      await files.register(fastifyStatic, {
        root: root!, wildcard: false, index: false, maxAge: '1y', immutable: true,
        setHeaders: (res, path) => { if (path.endsWith('.html')) res.setHeader('cache-control', 'no-cache'); },
      });
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = API_PREFIXES.some((p) => path.toLowerCase().startsWith(p));
    if (indexHtml && request.method === 'GET' && !isApi) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
    }
    return reply.status(404).send({ status: 404, message: 'Not found', details: `${request.method} ${path}`, code: ERROR_CODES.NOT_FOUND, requestId: request.id });
  });
}
