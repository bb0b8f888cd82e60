import type { CustomerIntegration, IntegrationFieldsInput } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { IntegrationKind } from '../../db/tables/customers.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { MASK, maskSecret, SecretBox } from '../../platform/crypto.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { requireCustomer } from './customer-access.js';
import { integrationRepository as repo } from './integrations.repository.js';

/** HKDF info label of the key that seals integration credentials; distinct from every other use of the token secret. */
export const INTEGRATION_SECRETS_LABEL = 'bolx-wms/customer-integration-secrets/v1';

const WORDS: Record<IntegrationKind, { entity: string; thing: string; Thing: string }> = {
  carrier: { entity: 'customer_carrier', thing: 'carrier', Thing: 'Carrier' },
  channel: { entity: 'customer_channel', thing: 'sales channel', Thing: 'Sales channel' },
};

type Property = Awaited<ReturnType<typeof repo.properties>>[number];
type IntegrationRow = NonNullable<Awaited<ReturnType<typeof repo.find>>>;
type ValueRow = Awaited<ReturnType<typeof repo.values>>[number];

/** The associated data a sealed value is bound to: its integration and property. */
const boundTo = (integrationId: number, propertyId: number) => `customer_integration:${integrationId}:${propertyId}`;

/** The box integration secrets are sealed in (the token secret, this purpose's label). */
export const integrationSecretBox = (tokenSecret: Uint8Array) => new SecretBox(tokenSecret, INTEGRATION_SECRETS_LABEL);

/** A stored property value in plain text: a secret unsealed, or null when it no longer opens (e.g. the token secret was changed). */
export function openIntegrationValue(box: SecretBox, v: { customer_integration_id: number; property_id: number; value: string; is_secret: number }): string | null {
  if (v.is_secret !== 1) return v.value;
  try {
    return box.open(v.value, boundTo(v.customer_integration_id, v.property_id));
  } catch {
    return null;
  }
}

/**
 * A customer's carrier accounts or sales-channel integrations (one service per kind): an integration type
 * from the seeded catalogue, with a value for each of its properties. Secret values are sealed at rest and
 * answered masked; an update that sends the masked value back keeps the stored secret.
 */
export class IntegrationService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  private readonly box: SecretBox;
  private readonly words: (typeof WORDS)[IntegrationKind];

  constructor(deps: Pick<ServiceDeps, 'config' | 'db' | 'recorder'>, readonly kind: IntegrationKind) {
    this.db = deps.db;
    this.recorder = deps.recorder;
    this.box = integrationSecretBox(deps.config.tokenSecret);
    this.words = WORDS[kind];
  }

  async catalogue() {
    return (await repo.types(this.db, this.kind)).map((t) => ({ uId: t.id, integrationId: t.id, integrationCode: t.code, integrationName: t.name }));
  }

  async properties(typeId: number) {
    await this.requireType(typeId);
    return (await repo.properties(this.db, typeId)).map((p) => ({
      uniqueid: p.id, integrationId: p.integration_type_id, propertyKey: p.key, label: p.label, isSecret: p.is_secret === 1, isRequired: p.is_required === 1,
    }));
  }

  /** A customer's integrations of this kind, and the catalogue to add more from. */
  async listForCustomer(principal: Principal, customerId: number) {
    await requireCustomer(this.db, principal, customerId);
    const rows = await repo.ofCustomer(this.db, this.kind, customerId);
    const values = await repo.values(this.db, rows.map((r) => r.id));
    return { items: rows.map((r) => this.toAnswer(r, values)), integrations: await this.catalogue() };
  }

  /** The customer's integration of one type (integrationId is the type's id; a customer has at most one per type). */
  async details(principal: Principal, typeId: number, customerId: number): Promise<CustomerIntegration> {
    await requireCustomer(this.db, principal, customerId);
    const found = await repo.findByType(this.db, this.kind, customerId, typeId);
    if (!found) throw notFound(this.words.Thing);
    return this.load(this.db, found.id);
  }

  async create(principal: Principal, input: IntegrationFieldsInput & { customerId: number; integrationId: number }, actor: Actor) {
    await requireCustomer(this.db, principal, input.customerId);
    const type = await this.requireType(input.integrationId);
    const properties = await repo.properties(this.db, type.id);
    const plain = resolveValues(properties, input.properties, new Map());
    if (await repo.findByType(this.db, this.kind, input.customerId, type.id)) {
      throw conflict(`This customer already has a ${type.name} ${this.words.thing}`);
    }
    const now = new Date().toISOString();
    const created = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      const id = await repo.insert(tx, {
        customer_id: input.customerId, integration_type_id: type.id, kind: this.kind, account_name: input.accountName,
        is_active: input.isActive ? 1 : 0, created_at: now, updated_at: now,
      });
      await repo.putValues(tx, id, this.sealAll(id, properties, plain));
      const after = await this.load(tx, id);
      await this.recorder.record(uow, actor, { audit: { action: 'create', entity: this.words.entity, entityId: id, customerId: input.customerId, after } });
      return after;
    });
    return { message: `${this.words.Thing} added successfully`, data: created };
  }

  async update(principal: Principal, id: number, input: IntegrationFieldsInput, actor: Actor) {
    const row = await this.requireOwned(principal, id);
    const properties = await repo.properties(this.db, row.integration_type_id);
    const current = this.openAll(await repo.values(this.db, [id]));
    const plain = resolveValues(properties, input.properties, current);
    const before = this.toAnswer(row, await repo.values(this.db, [id]));
    const updated = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await repo.update(tx, id, { account_name: input.accountName, is_active: input.isActive ? 1 : 0, updated_at: new Date().toISOString() });
      await repo.putValues(tx, id, this.sealAll(id, properties, plain));
      const after = await this.load(tx, id);
      await this.recorder.record(uow, actor, { audit: { action: 'update', entity: this.words.entity, entityId: id, customerId: row.customer_id, before, after } });
      return after;
    });
    return { message: `${this.words.Thing} updated successfully`, data: updated };
  }

  /** Deletes one of a customer's integrations; `typeId`, when given, must be the integration's type too. */
  async remove(principal: Principal, target: { customerId: number; id: number; typeId?: number }, actor: Actor) {
    await requireCustomer(this.db, principal, target.customerId);
    const row = await repo.find(this.db, this.kind, target.id);
    if (!row || row.customer_id !== target.customerId || (target.typeId !== undefined && row.integration_type_id !== target.typeId)) {
      throw notFound(this.words.Thing);
    }
    const before = this.toAnswer(row, await repo.values(this.db, [row.id]));
    await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await repo.delete(tx, row.id);
      await this.recorder.record(uow, actor, { audit: { action: 'delete', entity: this.words.entity, entityId: row.id, customerId: row.customer_id, before } });
    });
    return { message: `${this.words.Thing} deleted successfully` };
  }

  private async requireType(typeId: number) {
    const type = await repo.findType(this.db, this.kind, typeId);
    if (!type) throw notFound(`${this.words.Thing} integration`);
    return type;
  }

  /** An integration of this kind that the caller may see: 404 when there is none, 403 for another customer's. */
  private async requireOwned(principal: Principal, id: number) {
    const row = await repo.find(this.db, this.kind, id);
    if (!row) throw notFound(this.words.Thing);
    await requireCustomer(this.db, principal, row.customer_id);
    return row;
  }

  private async load(db: Executor, id: number): Promise<CustomerIntegration> {
    const row = (await repo.find(db, this.kind, id))!;
    return this.toAnswer(row, await repo.values(db, [id]));
  }

  private toAnswer(row: IntegrationRow, values: ValueRow[]): CustomerIntegration {
    return {
      uniqueid: row.id, customerId: row.customer_id, integrationId: row.integration_type_id, integrationCode: row.type_code,
      integrationName: row.type_name, accountName: row.account_name, isActive: row.is_active === 1,
      properties: values.filter((v) => v.customer_integration_id === row.id).map((v) => ({
        propertyId: v.property_id, propertyKey: v.key, label: v.label, isSecret: v.is_secret === 1,
        value: v.is_secret === 1 ? this.masked(v) : v.value,
      })),
      createdAt: row.created_at, updatedAt: row.updated_at,
    };
  }

  private masked(v: ValueRow): string {
    const plain = this.reveal(v);
    return plain === null ? MASK : maskSecret(plain);
  }

  private reveal(v: ValueRow): string | null {
    return openIntegrationValue(this.box, v);
  }

  private openAll(values: ValueRow[]): Map<number, string | null> {
    return new Map(values.map((v) => [v.property_id, this.reveal(v)]));
  }

  private sealAll(integrationId: number, properties: Property[], plain: Map<number, string>) {
    return properties.filter((p) => plain.has(p.id)).map((p) => {
      const value = plain.get(p.id)!;
      return { propertyId: p.id, value: p.is_secret === 1 ? this.box.seal(value, boundTo(integrationId, p.id)) : value };
    });
  }
}

/**
 * The plain value of every property after a create or update. A property not sent keeps its current value;
 * a secret sent back as its mask keeps the stored secret (any other masked text counts as empty); an empty optional value is dropped; a required one
 * left empty, an unknown property or one sent twice is refused (400, details keyed `properties.<key>`).
 */
export function resolveValues(properties: Property[], sent: { propertyId: number; value: string }[], current: Map<number, string | null>): Map<number, string> {
  const byId = new Map(properties.map((p) => [p.id, p]));
  const sentById = new Map<number, string>();
  for (const s of sent) {
    if (!byId.has(s.propertyId)) throw badRequest('Unknown property for this integration', { properties: `Unknown property ${s.propertyId}` });
    if (sentById.has(s.propertyId)) throw badRequest('A property was sent twice', { properties: `Property ${s.propertyId} was sent twice` });
    sentById.set(s.propertyId, s.value.trim());
  }
  const result = new Map<number, string>();
  const missing: Record<string, string> = {};
  for (const p of properties) {
    const stored = current.get(p.id) ?? null;
    let value = sentById.has(p.id) ? sentById.get(p.id)! : stored ?? '';
    if (p.is_secret === 1 && sentById.has(p.id) && value.startsWith(MASK)) {
      // A mask is never a secret: it stands for the stored one, when it is that one's mask.
      value = stored !== null && value === maskSecret(stored) ? stored : '';
    }
    if (value) result.set(p.id, value);
    else if (p.is_required === 1) missing[`properties.${p.key}`] = `Please enter ${p.label}!`;
  }
  const first = Object.values(missing)[0];
  if (first) throw badRequest(first, missing);
  return result;
}
