import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_KEY_EXAMPLE, API_KEY_HEADER } from '@bolx/contracts';
import { declareFileRoutes } from './access.js';

/** OpenAPI from the route schemas: the document at /docs/json, a reader at /docs. Register before routes. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'BOLX-WMS API', version, description: 'Warehouse, freight and service management for 3PLs. Errors answer {status, message, details, code, requestId}.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: {
            type: 'apiKey', in: 'header', name: API_KEY_HEADER,
            description: `A customer's API key, for its integrations (routes open to keys: orders, ApiKeyWhoAmI); sent instead of a bearer token. ` +
              `Created with POST /Warehouse/Customer/CreateApiKey and shown once. Example: \`${API_KEY_HEADER}: ${API_KEY_EXAMPLE}\`. ` +
              'A revoked or unknown key answers 401; wrong keys from one address are throttled (429 with Retry-After). Mutations accept Idempotency-Key.',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(async (docs) => {
    declareFileRoutes(docs);
    await docs.register(fastifySwaggerUi, { routePrefix: '/docs' });
  });
}
