import type { KitComponent, Sku } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import { conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { kitRepository as repo, type KitComponentRow } from './kits.repository.js';
import { commitSkuChange, loadSku } from './sku-common.js';
import { skuRepository } from './skus.repository.js';

export function toKitComponent(k: KitComponentRow): KitComponent {
  return {
    uniqueid: k.id, kitSkuId: k.kit_sku_id, customerid: k.customer_id, componentSkuId: k.component_sku_id, componentSkuCode: k.sku_code,
    componentDescription: k.description, componentIsKit: k.is_kit === 1, quantity: k.quantity, createdAt: k.created_at, updatedAt: k.updated_at,
  };
}

/** Kit components: a kit SKU is made of component SKUs of the same client, and never contains itself. */
export class KitService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'recorder'>) {
    this.db = deps.db;
    this.recorder = deps.recorder;
  }

  async listByKit(principal: Principal, kitSkuId: number) {
    await loadSku(this.db, principal, kitSkuId);
    return (await repo.componentsOf(this.db, principal.scope, kitSkuId)).map(toKitComponent);
  }

  async add(principal: Principal, input: { kitSkuId: number; componentSkuId: number; quantity: number }, actor: Actor) {
    const kit = await loadSku(this.db, principal, input.kitSkuId);
    const component = await this.checkComponent(principal, kit, input.componentSkuId);
    const now = new Date().toISOString();
    const created = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'create', entity: 'kit_component', subEvent: 'AddKitComponent', customerId: kit.customerId, skuId: kit.skuId },
      async (tx) => {
        await this.assertNoCycle(tx, kit, component);
        if (await repo.findPair(tx, kit.skuId, component.skuId)) {
          throw conflict(`${component.skuCode} is already a component of ${kit.skuCode}; change its quantity instead`);
        }
        const id = await repo.insert(tx, {
          customer_id: kit.customerId, kit_sku_id: kit.skuId, component_sku_id: component.skuId, quantity: input.quantity, created_at: now, updated_at: now,
        });
        return { id, after: toKitComponent((await repo.findById(tx, principal.scope, id))!) };
      });
    return { message: 'Kit component added successfully', data: created! };
  }

  async update(principal: Principal, input: { uniqueid: number; componentSkuId?: number; quantity: number }, actor: Actor) {
    const before = await this.find(principal, input.uniqueid);
    const kit = await loadSku(this.db, principal, before.kitSkuId);
    const componentId = input.componentSkuId ?? before.componentSkuId;
    const component = componentId === before.componentSkuId ? null : await this.checkComponent(principal, kit, componentId);
    const updated = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'update', entity: 'kit_component', subEvent: 'UpdateKitComponent', customerId: kit.customerId, skuId: kit.skuId, before },
      async (tx) => {
        if (component) {
          await this.assertNoCycle(tx, kit, component);
          if (await repo.findPair(tx, kit.skuId, component.skuId)) throw conflict(`${component.skuCode} is already a component of ${kit.skuCode}`);
        }
        await repo.update(tx, before.uniqueid, { component_sku_id: componentId, quantity: input.quantity, updated_at: new Date().toISOString() });
        return { id: before.uniqueid, after: toKitComponent((await repo.findById(tx, principal.scope, before.uniqueid))!) };
      });
    return { message: 'Kit component updated successfully', data: updated! };
  }

  async delete(principal: Principal, id: number, actor: Actor) {
    const before = await this.find(principal, id);
    await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'delete', entity: 'kit_component', subEvent: 'DeleteKitComponent', customerId: before.customerid, skuId: before.kitSkuId, before },
      async (tx) => {
        await repo.delete(tx, id);
        return { id, after: null };
      });
    return { message: 'Kit component deleted successfully', data: before };
  }

  private async find(principal: Principal, id: number) {
    const row = await repo.findById(this.db, principal.scope, id);
    if (!row) throw notFound('Kit component');
    return toKitComponent(row);
  }

  /** The component must be another SKU of the kit's client, and the kit must be a kit. */
  private async checkComponent(principal: Principal, kit: Sku, componentSkuId: number) {
    if (!kit.iskititem) throw unprocessable(`${kit.skuCode} is not a kit SKU`);
    if (componentSkuId === kit.skuId) throw unprocessable('A kit cannot contain itself');
    const component = await loadSku(this.db, principal, componentSkuId);
    if (component.customerId !== kit.customerId) throw unprocessable('A kit and its components must belong to the same client');
    return component;
  }

  /** Adding kit → component closes a cycle when the kit is already reachable from the component. */
  private async assertNoCycle(tx: Executor, kit: Sku, component: Sku) {
    await skuRepository.lock(tx, [kit.skuId, component.skuId]);
    if (await repo.reaches(tx, component.skuId, kit.skuId)) {
      throw unprocessable(`A kit cannot contain itself: ${component.skuCode} already contains ${kit.skuCode}`);
    }
  }
}
