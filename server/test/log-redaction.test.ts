import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/platform/log-redaction.js';

// Issue 19, item 4: whatever a log call is handed — a form, a carrier account, the configuration — no secret is written.

function logger() {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const log = pino(loggerOptions('info') as pino.LoggerOptions, stream);
  return { log, text: () => lines.join('') };
}

describe('log lines', () => {
  it('censor passwords, pins, tokens, keys, carrier secrets and connection strings, at the top and one level down', () => {
    const { log, text } = logger();
    const secrets = {
      password: 'pw-1', rePassword: 'pw-2', confirmPassword: 'pw-3', newPassword: 'pw-4', pin: '4711', apiKey: 'k-1',
      clientSecret: 'carrier-1', apiSecret: 'carrier-2', privateKey: 'carrier-3', tokenSecret: 'ts-1', metricsToken: 'mt-1',
      databaseUrl: 'postgres://u:db-pass@h/db', smtpUrl: 'smtp://u:smtp-pass@h', DATABASE_URL: 'postgres://u:db-pass-2@h/db',
    };
    log.info(secrets, 'top level');
    log.info({ account: secrets, config: secrets }, 'one level down');
    log.info({ headers: { authorization: 'Bearer abc.def', cookie: 'sid=1', 'x-api-key': 'bolx_x_y' } }, 'headers');
    const out = text();
    for (const value of [...Object.values(secrets), 'abc.def', 'sid=1', 'bolx_x_y']) expect(out).not.toContain(value);
    expect(out.match(/\[Redacted\]/g)?.length).toBe(3 * Object.keys(secrets).length + 3);
  });
});
