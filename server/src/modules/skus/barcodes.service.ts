import type { SkuBarcode, SkuBarcodeInput, UpdateSkuBarcodeInput } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import { notFound } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { barcodeRepository as repo, type BarcodeRow } from './barcodes.repository.js';
import { assertCodeFree, commitSkuChange, loadSku } from './sku-common.js';

export function toBarcode(b: BarcodeRow): SkuBarcode {
  return {
    uniqueid: b.id, skuId: b.sku_id, customerid: b.customer_id, barcode: b.barcode, barcodeType: b.barcode_type as SkuBarcode['barcodeType'],
    createdAt: b.created_at, updatedAt: b.updated_at,
  };
}

/**
 * SKU barcodes. The schema has already checked GTIN check digits; here a code is held unique within the
 * client (across barcodes, package GTINs and UPCs), while another client may use the same code.
 */
export class BarcodeService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'recorder'>) {
    this.db = deps.db;
    this.recorder = deps.recorder;
  }

  async listBySku(principal: Principal, skuId: number) {
    await loadSku(this.db, principal, skuId);
    return (await repo.ofSku(this.db, principal.scope, skuId)).map(toBarcode);
  }

  async add(principal: Principal, input: SkuBarcodeInput, actor: Actor) {
    const sku = await loadSku(this.db, principal, input.skuId);
    await assertCodeFree(this.db, sku.customerId, input.barcode, { source: 'barcode', skuId: sku.skuId });
    const now = new Date().toISOString();
    const created = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'create', entity: 'sku_barcode', subEvent: 'AddBarcode', customerId: sku.customerId, skuId: sku.skuId },
      async (tx) => {
        const id = await repo.insert(tx, {
          customer_id: sku.customerId, sku_id: sku.skuId, barcode: input.barcode, barcode_type: input.barcodeType, created_at: now, updated_at: now,
        });
        return { id, after: toBarcode((await repo.findById(tx, principal.scope, id))!) };
      });
    return { message: 'Barcode created successfully', data: created! };
  }

  async update(principal: Principal, id: number, input: UpdateSkuBarcodeInput, actor: Actor) {
    const before = await this.find(principal, id);
    await assertCodeFree(this.db, before.customerid, input.barcode, { source: 'barcode', id, skuId: before.skuId });
    const updated = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'update', entity: 'sku_barcode', subEvent: 'UpdateBarcode', customerId: before.customerid, skuId: before.skuId, before },
      async (tx) => {
        await repo.update(tx, id, { barcode: input.barcode, barcode_type: input.barcodeType, updated_at: new Date().toISOString() });
        return { id, after: toBarcode((await repo.findById(tx, principal.scope, id))!) };
      });
    return { message: 'Barcode updated successfully', data: updated! };
  }

  async delete(principal: Principal, id: number, actor: Actor) {
    const before = await this.find(principal, id);
    await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'delete', entity: 'sku_barcode', subEvent: 'DeleteBarcode', customerId: before.customerid, skuId: before.skuId, before },
      async (tx) => {
        await repo.delete(tx, id);
        return { id, after: null };
      });
    return { message: 'Barcode deleted successfully', data: before };
  }

  private async find(principal: Principal, id: number) {
    const row = await repo.findById(this.db, principal.scope, id);
    if (!row) throw notFound('Barcode');
    return toBarcode(row);
  }
}
