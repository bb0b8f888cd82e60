import type { DimensionRow, UpdateDimensionsInput } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { notFound } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { dimensionRepository as repo, type DimensionFilter } from './dimensions.repository.js';
import { packageRepository } from './packages.repository.js';
import { toPackage } from './packages.service.js';
import { commitSkuChange, loadSku, toSku } from './sku-common.js';
import { skuRepository } from './skus.repository.js';

const orNull = (n: number | null) => (n == null ? null : Number(n));

type Row = {
  uid: string; kind: 'sku' | 'package'; sku_id: number; package_id: number | null; customer_id: number; customer_name: string;
  sku_code: string; description: string; package_name: string | null;
  length_cm: number | null; width_cm: number | null; height_cm: number | null; weight_kg: number | null;
};

function toDimensionRow(r: Row): DimensionRow {
  const measures = { lengthCm: orNull(r.length_cm), widthCm: orNull(r.width_cm), heightCm: orNull(r.height_cm), weightKg: orNull(r.weight_kg) };
  return {
    uniqueId: r.uid, kind: r.kind, skuId: r.sku_id, packageId: r.package_id == null ? null : Number(r.package_id), customerId: r.customer_id,
    customerName: r.customer_name, skuCode: r.sku_code, description: r.description, packageName: r.package_name, ...measures,
    missingDimensions: Object.values(measures).some((v) => v == null),
  };
}

/** The /Dimensions screen: capture L×W×H (cm) and weight (kg) of SKUs and their packages. */
export class DimensionService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  async list(principal: Principal, req: ListRequest<DimensionFilter>) {
    return toListPage(await repo.list(this.db, this.dialect, principal.scope, req), (r) => toDimensionRow(r as Row));
  }

  /** Sets the SKU's measures, or its package's when packageId is given (the package must be the SKU's). */
  async update(principal: Principal, input: UpdateDimensionsInput, actor: Actor) {
    const sku = await loadSku(this.db, principal, input.skuId);
    const measures = { length_cm: input.lengthCm, width_cm: input.widthCm, height_cm: input.heightCm, weight_kg: input.weightKg, updated_at: new Date().toISOString() };
    const deps = { db: this.db, recorder: this.recorder };
    if (input.packageId == null) {
      const after = await commitSkuChange(deps, actor,
        { action: 'update', entity: 'sku', subEvent: 'SkuUpdate', customerId: sku.customerId, skuId: sku.skuId, before: sku },
        async (tx) => {
          await repo.setSku(tx, sku.skuId, measures);
          return { id: sku.skuId, after: toSku((await skuRepository.findById(tx, principal.scope, sku.skuId))!) };
        });
      return { message: 'Dimensions updated successfully', data: { sku: after!, package: null } };
    }
    const row = await packageRepository.findById(this.db, principal.scope, input.packageId);
    if (!row || row.sku_id !== sku.skuId) throw notFound('Package');
    const before = toPackage(row);
    const after = await commitSkuChange(deps, actor,
      { action: 'update', entity: 'sku_package', subEvent: 'UpdatePackage', customerId: sku.customerId, skuId: sku.skuId, before },
      async (tx) => {
        await repo.setPackage(tx, before.packageid, measures);
        return { id: before.packageid, after: toPackage((await packageRepository.findById(tx, principal.scope, before.packageid))!) };
      });
    return { message: 'Dimensions updated successfully', data: { sku, package: after! } };
  }
}
