import type { PackageNode, SkuPackage, SkuPackageInput, UpdateSkuPackageInput } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { packageRepository as repo, type PackageRow } from './packages.repository.js';
import { assertCodeFree, commitSkuChange, loadSku } from './sku-common.js';

const orNull = (n: number | null) => (n == null ? null : Number(n));

export function toPackage(p: PackageRow): SkuPackage {
  return {
    packageid: p.id, uniqueId: p.id, skuId: p.sku_id, customerid: p.customer_id, skuCode: p.sku_code, packageType: p.package_type,
    packageName: p.package_name, parentPackageId: p.parent_id, quantity: p.quantity, lengthCm: orNull(p.length_cm), widthCm: orNull(p.width_cm),
    heightCm: orNull(p.height_cm), weightKg: orNull(p.weight_kg), gtin: p.gtin, createdAt: p.created_at, updatedAt: p.updated_at,
  };
}

/** Nests packages under their parents: the roots, each with childPackages (recursively) and parentUniqueId. */
export function packageTreeOf(packages: SkuPackage[]): PackageNode[] {
  const nodes = new Map<number, PackageNode>(packages.map((p) => [p.packageid, { ...p, parentUniqueId: p.parentPackageId, childPackages: [] }]));
  const roots: PackageNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentPackageId == null ? undefined : nodes.get(node.parentPackageId);
    if (parent) parent.childPackages.push(node);
    else roots.push(node);
  }
  return roots;
}

function columnsOf(input: UpdateSkuPackageInput) {
  return {
    package_type: input.packageType, package_name: input.packageName, parent_id: input.parentPackageId, quantity: input.quantity,
    length_cm: input.lengthCm, width_cm: input.widthCm, height_cm: input.heightCm, weight_kg: input.weightKg, gtin: input.gtin,
  };
}

/** A SKU's packaging levels (each, inner, case, pallet…) as a hierarchy within that SKU. */
export class PackageService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'recorder'>) {
    this.db = deps.db;
    this.recorder = deps.recorder;
  }

  async listBySku(principal: Principal, skuId: number) {
    await loadSku(this.db, principal, skuId);
    return (await repo.ofSku(this.db, principal.scope, skuId)).map(toPackage);
  }

  /** GetParentAndChildPackages: the package hierarchy in scope, optionally of one SKU or one client. */
  async tree(principal: Principal, f: { skuid?: number; customerid?: number }) {
    if (f.customerid) principal.scope.assert({ customerId: f.customerid });
    if (f.skuid) await loadSku(this.db, principal, f.skuid);
    return packageTreeOf((await repo.forTree(this.db, principal.scope, { skuId: f.skuid, customerId: f.customerid })).map(toPackage));
  }

  async add(principal: Principal, input: SkuPackageInput, actor: Actor) {
    const sku = await loadSku(this.db, principal, input.skuId);
    if (input.customerid !== sku.customerId) throw badRequest('The SKU belongs to another client', { customerid: 'The SKU belongs to another client' });
    await this.checkParent(principal, sku.skuId, input.parentPackageId);
    await assertCodeFree(this.db, sku.customerId, input.gtin, { source: 'package', skuId: sku.skuId });
    const now = new Date().toISOString();
    const created = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'create', entity: 'sku_package', subEvent: 'AddPackage', customerId: sku.customerId, skuId: sku.skuId },
      async (tx) => {
        const id = await repo.insert(tx, { ...columnsOf(input), customer_id: sku.customerId, sku_id: sku.skuId, created_at: now, updated_at: now });
        return { id, after: toPackage((await repo.findById(tx, principal.scope, id))!) };
      });
    return { message: 'Package created successfully', data: created! };
  }

  async update(principal: Principal, packageId: number, input: UpdateSkuPackageInput, actor: Actor) {
    const before = await this.find(principal, packageId);
    await this.checkParent(principal, before.skuId, input.parentPackageId);
    await assertCodeFree(this.db, before.customerid, input.gtin, { source: 'package', id: packageId, skuId: before.skuId });
    const updated = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'update', entity: 'sku_package', subEvent: 'UpdatePackage', customerId: before.customerid, skuId: before.skuId, before },
      async (tx) => {
        await this.assertNotInsideItself(tx, before.skuId, packageId, input.parentPackageId);
        await repo.update(tx, packageId, { ...columnsOf(input), updated_at: new Date().toISOString() });
        return { id: packageId, after: toPackage((await repo.findById(tx, principal.scope, packageId))!) };
      });
    return { message: 'Package updated successfully', data: updated! };
  }

  /** A package that still holds child packages cannot go: its children would lose their parent. */
  async delete(principal: Principal, packageId: number, actor: Actor) {
    const before = await this.find(principal, packageId);
    await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'delete', entity: 'sku_package', subEvent: 'DeletePackage', customerId: before.customerid, skuId: before.skuId, before },
      async (tx) => {
        if (await repo.hasChildren(tx, packageId)) throw conflict(`Package ${before.packageName} has child packages; delete or move them first`);
        await repo.delete(tx, packageId);
        return { id: packageId, after: null };
      });
    return { message: 'Package deleted successfully', data: before };
  }

  private async find(principal: Principal, id: number) {
    const row = await repo.findById(this.db, principal.scope, id);
    if (!row) throw notFound('Package');
    return toPackage(row);
  }

  private async checkParent(principal: Principal, skuId: number, parentId: number | null) {
    if (parentId == null) return;
    const parent = await repo.findById(this.db, principal.scope, parentId);
    if (!parent) throw notFound('Parent package');
    if (parent.sku_id !== skuId) throw unprocessable('The parent package must belong to the same SKU');
  }

  /** Walks up from the new parent: reaching the package itself means it would sit inside itself. */
  private async assertNotInsideItself(tx: Executor, skuId: number, packageId: number, parentId: number | null) {
    const parentOf = new Map((await repo.parentLinks(tx, skuId)).map((l) => [l.id, l.parent_id]));
    for (let at = parentId, steps = 0; at != null && steps <= parentOf.size; at = parentOf.get(at) ?? null, steps++) {
      if (at === packageId) throw unprocessable('A package cannot be inside itself, directly or through its child packages');
    }
  }
}
