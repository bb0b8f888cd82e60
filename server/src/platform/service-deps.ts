import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/schema.js';
import type { Dialect } from '../db/dialect.js';
import type { EventBus } from './events.js';
import type { ChangeRecorder } from './change-recorder.js';
import type { DomainEvents } from './domain-events.js';
import type { WarehouseTimeZones } from './business-day.js';
import type { Mailer } from './mail.js';
import type { AccessTokens } from './tokens.js';

/**
 * What a service may depend on, built once in the composition root (services.ts). It lives apart from that root
 * so a service's import of it runs no type cycle through every other service; each service takes only the
 * fields it uses (`Pick<ServiceDeps, 'db' | …>`), and the root still passes this one object.
 */
export interface ServiceDeps {
  db: Db;
  dialect: Dialect;
  events: EventBus;
  /** The one way to write a change's audit rows and hub events. */
  recorder: ChangeRecorder;
  /** Internal domain events: a module subscribes here to another's changes (the emitter never calls it). */
  domainEvents: DomainEvents;
  /** Warehouses' time zones, for the business day of a posting or a report bucket. */
  timeZones: WarehouseTimeZones;
  mailer: Mailer;
  tokens: AccessTokens;
  config: Config;
  log: FastifyBaseLogger;
}
