import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { declareFileRoutes } from './access.js';

/** OpenAPI from the route schemas: the document at /docs/json, a reader at /docs. Register before routes. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'BOLX-WMS API', version, description: 'Warehouse, freight and service management for 3PLs. Errors answer {status, message, details, code, requestId}.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(async (docs) => {
    declareFileRoutes(docs);
    await docs.register(fastifySwaggerUi, { routePrefix: '/docs' });
  });
}
