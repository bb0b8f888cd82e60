import type { FastifyRequest, FastifyServerOptions } from 'fastify';

export const REDACTED = '[Redacted]';

/**
 * Query parameters whose values are secrets, by name with case, '-' and '_' ignored: tokens of every kind
 * (access_token on the hub, the reset link's token), passwords, pins, API keys and other secrets.
 */
const SECRET_PARAM = /token|passw|secret|apikey|^pin$|^key$|signature/;

const isSecretName = (name: string) => SECRET_PARAM.test(name.toLowerCase().replace(/[-_]/g, ''));

/** The URL with the value of every secret query parameter replaced; everything else kept as it was sent. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch { /* a malformed name is checked as sent */ }
    return eq >= 0 && isSecretName(decoded) ? `${name}=${REDACTED}` : pair;
  });
  return `${url.slice(0, q)}?${query.join('&')}`;
}

/** Keys whose values are secrets wherever a log call puts them (at the top or one level down). */
const SECRET_KEYS = [
  'password', 'newPassword', 'previousPassword', 'rePassword', 'confirmPassword', 'token', 'accesstoken', 'accessToken', 'access_token',
  'refreshtoken', 'refreshToken', 'refresh_token', 'pin', 'apiKey', 'api_key', 'secret', 'authorization', 'cookie',
  // Carrier and integration credentials, and the server's own settings (connection strings carry passwords).
  'clientSecret', 'client_secret', 'apiSecret', 'privateKey', 'private_key', 'tokenSecret', 'metricsToken',
  'databaseUrl', 'smtpUrl', 'DATABASE_URL', 'SMTP_URL', 'TOKEN_SECRET', 'METRICS_TOKEN', 'PGPASSWORD',
];

const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]',
  'headers.authorization', 'headers.cookie', 'headers["x-api-key"]', 'headers["set-cookie"]',
  ...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`),
];

/** Fastify's own request serializer, with the URL's secrets taken out. */
function requestForLog(req: FastifyRequest) {
  const version = req.headers?.['accept-version'];
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: Array.isArray(version) ? version.join(', ') : version,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The server's logger: no log line carries a token, password, pin, cookie or key — not the request URL's
 * query, not a header, not a field of an object handed to a log call.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: requestForLog },
    ...(stream ? { stream } : {}),
  };
}
