import { describe, expect, it } from 'vitest';
import type { FastifyError } from 'fastify';
import { toApiError } from '../src/plugins/error-handler.js';

describe('an upload the client stops half-way', () => {
  it('answers 400, not 500 (the multipart stream closes early when an upload is stopped)', () => {
    const err = Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }) as FastifyError;
    expect(toApiError(err, 'r1')).toMatchObject({ status: 400, message: 'The upload was interrupted before the whole file arrived', requestId: 'r1' });
    const reset = Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) as FastifyError;
    expect(toApiError(reset, 'r2').status).toBe(400);
    expect(toApiError(new Error('boom') as FastifyError, 'r3').status).toBe(500);
  });
});
