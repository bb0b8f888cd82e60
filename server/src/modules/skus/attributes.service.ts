import type { SkuAttribute, SkuAttributeInput } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import { conflict, notFound } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { attributeRepository as repo, type AttributeRow } from './attributes.repository.js';
import { commitSkuChange, loadSku } from './sku-common.js';

export function toAttribute(a: AttributeRow): SkuAttribute {
  return {
    uniqueid: a.id, skuId: a.sku_id, customerid: a.customer_id, attributeName: a.name, attributeValue: a.value,
    createdAt: a.created_at, updatedAt: a.updated_at,
  };
}

/** Name/value attributes of a SKU, one value per name. */
export class AttributeService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'recorder'>) {
    this.db = deps.db;
    this.recorder = deps.recorder;
  }

  async listBySku(principal: Principal, skuId: number) {
    await loadSku(this.db, principal, skuId);
    return (await repo.ofSku(this.db, principal.scope, skuId)).map(toAttribute);
  }

  async add(principal: Principal, input: SkuAttributeInput, actor: Actor) {
    const sku = await loadSku(this.db, principal, input.skuId);
    await this.assertNameFree(sku.skuId, input.attributeName);
    const now = new Date().toISOString();
    const created = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'create', entity: 'sku_attribute', subEvent: 'AddAttribute', customerId: sku.customerId, skuId: sku.skuId },
      async (tx) => {
        const id = await repo.insert(tx, {
          customer_id: sku.customerId, sku_id: sku.skuId, name: input.attributeName, value: input.attributeValue, created_at: now, updated_at: now,
        });
        return { id, after: toAttribute((await repo.findById(tx, principal.scope, id))!) };
      });
    return { message: 'Attribute created successfully', data: created! };
  }

  async update(principal: Principal, id: number, input: { attributeName: string; attributeValue: string }, actor: Actor) {
    const before = await this.find(principal, id);
    await this.assertNameFree(before.skuId, input.attributeName, id);
    const updated = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'update', entity: 'sku_attribute', subEvent: 'UpdateAttribute', customerId: before.customerid, skuId: before.skuId, before },
      async (tx) => {
        await repo.update(tx, id, { name: input.attributeName, value: input.attributeValue, updated_at: new Date().toISOString() });
        return { id, after: toAttribute((await repo.findById(tx, principal.scope, id))!) };
      });
    return { message: 'Attribute updated successfully', data: updated! };
  }

  /** DeleteAttribute: not among the spec's listed paths ("other … delete paths: not shown"); the Attribute tab needs it. */
  async delete(principal: Principal, id: number, actor: Actor) {
    const before = await this.find(principal, id);
    await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'delete', entity: 'sku_attribute', subEvent: 'DeleteAttribute', customerId: before.customerid, skuId: before.skuId, before },
      async (tx) => {
        await repo.delete(tx, id);
        return { id, after: null };
      });
    return { message: 'Attribute deleted successfully', data: before };
  }

  private async find(principal: Principal, id: number) {
    const row = await repo.findById(this.db, principal.scope, id);
    if (!row) throw notFound('Attribute');
    return toAttribute(row);
  }

  private async assertNameFree(skuId: number, name: string, exceptId?: number) {
    if (await repo.nameTaken(this.db, skuId, name, exceptId)) throw conflict(`The SKU already has an attribute named ${name}`);
  }
}
