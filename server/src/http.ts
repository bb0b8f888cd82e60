import type { ZodType } from 'zod';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { apiErrorSchema } from '@bolx/contracts';
import { XLSX_TYPE } from './platform/excel.js';
import type { Services } from './services.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A multipart route's text fields, as its service parses them (`parseFields`): declared on the route so the
     * route walk (test/input-bounds.test.ts) reaches them like any body field.
     */
    uploadFields?: ZodType;
  }
}

/** The Fastify instance as route modules see it: zod-typed schemas. */
export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** A route module: registers its routes, calling services (never repositories). */
export type RouteModule = (api: Api, services: Services) => void;

/** Error answers every authenticated route may give, for the OpenAPI document. */
export const authErrors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema };

/** Sends a generated workbook as a download. */
export function sendXlsx(reply: FastifyReply, fileName: string, workbook: Buffer) {
  const stamp = new Date().toISOString().slice(0, 10);
  return reply.type(XLSX_TYPE).header('content-disposition', `attachment; filename="${fileName}-${stamp}.xlsx"`).send(workbook);
}
