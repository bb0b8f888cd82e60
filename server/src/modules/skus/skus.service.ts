import { SKU_UPLOAD_COLUMNS, uploadSkusFields, type FilterLabel, type Hazmat, type Sku, type SkuInput, type UpdateSkuInput } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { toXlsx } from '../../platform/excel.js';
import { parseFields, type ReceivedUpload } from '../../platform/files.js';
import { rowErrorDetails, rowErrorSummary } from '../../platform/sheet.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { AttributeService } from './attributes.service.js';
import { BarcodeService } from './barcodes.service.js';
import { DimensionService } from './dimensions.service.js';
import { KitService } from './kits.service.js';
import { kitRepository } from './kits.repository.js';
import { PackageService } from './packages.service.js';
import { assertCodeFree, commitSkuChange, loadSku, skuChangeRecord, toSku } from './sku-common.js';
import { readSkuSheet, validateSkuRows } from './upload.js';
import { count } from '../../platform/plural.js';
import { skuRepository as repo, type SkuListFilter } from './skus.repository.js';


const flag = (b: boolean) => (b ? 1 : 0);

function toHazmat(h: { id: number; class_code: string; hazard_class: number; division: string | null; name: string; packing_groups: string }): Hazmat {
  return {
    hazmatId: h.id, uniqueid: h.id, classCode: h.class_code, hazardClass: h.hazard_class, division: h.division, name: h.name,
    packingGroups: (h.packing_groups ? h.packing_groups.split(',') : []) as Hazmat['packingGroups'],
  };
}

type SkuFields = Omit<SkuInput, 'customerId'>;

/** The SKU's columns from the form. */
function columnsOf(input: SkuFields) {
  return {
    sku_code: input.skuCode, description: input.description, category: input.category, uom: input.uom, upc: input.upc,
    is_kit: flag(input.iskititem), is_active: flag(input.isActive), weight_kg: input.weightKg, length_cm: input.lengthCm,
    width_cm: input.widthCm, height_cm: input.heightCm, min_qty: input.minQty, max_qty: input.maxQty,
    is_lot_tracked: flag(input.isLotTracked), is_expiry_tracked: flag(input.isExpiryTracked), shelf_life_days: input.shelfLifeDays,
    abc_class: input.abcClass, hazmat_id: input.hazmatId, un_number: input.unNumber, packing_group: input.packingGroup,
  };
}

/**
 * The SKU catalogue. SKUs themselves are handled here; their kit components, packages, barcodes, attributes and
 * dimensions by the part services below, which share the scope, audit and event rules of sku-common.ts.
 */
export class SkuService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  readonly kits: KitService;
  readonly packages: PackageService;
  readonly barcodes: BarcodeService;
  readonly attributes: AttributeService;
  readonly dimensions: DimensionService;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.kits = new KitService(deps);
    this.packages = new PackageService(deps);
    this.barcodes = new BarcodeService(deps);
    this.attributes = new AttributeService(deps);
    this.dimensions = new DimensionService(deps);
  }

  async uoms() {
    return (await repo.uoms(this.db)).map((u) => ({ uomCode: u.code, uomName: u.name }));
  }

  async hazmats() {
    return (await repo.hazmats(this.db)).map(toHazmat);
  }

  async list(principal: Principal, req: ListRequest<SkuListFilter>) {
    return toListPage(await repo.list(this.db, this.dialect, principal.scope, req), toSku);
  }

  async download(principal: Principal, req: Pick<ListRequest<SkuListFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = (await repo.listAll(this.db, this.dialect, principal.scope, req)).map(toSku);
    return toXlsx<Sku>('SKUs', [
      { header: 'Client', value: (s) => s.customerName, width: 24 }, { header: 'SKU', value: (s) => s.skuCode, width: 20 },
      { header: 'Description', value: (s) => s.description, width: 40 }, { header: 'Category', value: (s) => s.category },
      { header: 'UOM', value: (s) => s.uom }, { header: 'UPC', value: (s) => s.upc, width: 16 },
      { header: 'Kit', value: (s) => (s.iskititem ? 'Yes' : 'No') }, { header: 'Status', value: (s) => (s.isActive ? 'Active' : 'Inactive') },
      { header: 'Length (cm)', value: (s) => s.lengthCm }, { header: 'Width (cm)', value: (s) => s.widthCm },
      { header: 'Height (cm)', value: (s) => s.heightCm }, { header: 'Weight (kg)', value: (s) => s.weightKg },
      { header: 'Min Qty', value: (s) => s.minQty }, { header: 'Max Qty', value: (s) => s.maxQty },
      { header: 'UN Number', value: (s) => s.unNumber }, { header: 'Hazard Class', value: (s) => s.hazmatClass },
      { header: 'Packing Group', value: (s) => s.packingGroup },
    ], rows);
  }

  async filterLabels(principal: Principal): Promise<FilterLabel[]> {
    const [customers, categories] = await Promise.all([repo.customersInScope(this.db, principal.scope), repo.categoriesInScope(this.db, principal.scope)]);
    return [
      { key: 'customerId', label: 'Client', type: 'select', options: customers.map((c) => ({ label: c.name, value: c.id })) },
      { key: 'category', label: 'Category', type: 'select', options: categories.map((c) => ({ label: c, value: c })) },
      { key: 'isKit', label: 'Kit Item', type: 'boolean' },
      { key: 'isActive', label: 'Status', type: 'select', options: [{ label: 'All', value: 'all' }, { label: 'Active', value: 'active' }, { label: 'Inactive', value: 'inactive' }] },
    ];
  }

  get(principal: Principal, skuId: number) {
    return loadSku(this.db, principal, skuId);
  }

  /** A customer's active kit SKUs, for the kit tab's picker. */
  async kitItemsByCustomer(principal: Principal, customerId: number) {
    principal.scope.assert({ customerId });
    return (await repo.kitsOfCustomer(this.db, principal.scope, customerId)).map(toSku);
  }

  async add(principal: Principal, input: SkuInput, actor: Actor) {
    principal.scope.assert({ customerId: input.customerId });
    if (!(await repo.customer(this.db, input.customerId))) throw notFound('Customer');
    await this.checkFields(this.db, input.customerId, input);
    const now = new Date().toISOString();
    const sku = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'create', entity: 'sku', subEvent: 'SkuAdd', customerId: input.customerId },
      async (tx) => {
        const id = await repo.insert(tx, { ...columnsOf(input), customer_id: input.customerId, created_at: now, updated_at: now });
        return { id, after: toSku((await repo.findById(tx, principal.scope, id))!) };
      });
    return { message: 'SKU added successfully', data: sku! };
  }

  async update(principal: Principal, input: UpdateSkuInput, actor: Actor) {
    const before = await loadSku(this.db, principal, input.skuId);
    await this.checkFields(this.db, before.customerId, input, input.skuId);
    if (before.iskititem && !input.iskititem && (await kitRepository.componentCount(this.db, input.skuId)) > 0) {
      throw unprocessable(`Remove the kit components of ${before.skuCode} before making it a non-kit SKU`);
    }
    const sku = await commitSkuChange({ db: this.db, recorder: this.recorder }, actor,
      { action: 'update', entity: 'sku', subEvent: 'SkuUpdate', customerId: before.customerId, skuId: before.skuId, before },
      async (tx) => {
        await repo.update(tx, input.skuId, { ...columnsOf(input), updated_at: new Date().toISOString() });
        return { id: input.skuId, after: toSku((await repo.findById(tx, principal.scope, input.skuId))!) };
      });
    return { message: 'SKU updated successfully', data: sku! };
  }

  /**
   * A CSV/XLSX sheet of SKUs for one client, all of the form's category. Every row is checked first — the Add
   * SKU form's rules, then code taken, UOM known, UPC free (in the file too); any bad row answers 422 with every
   * row's errors and writes nothing. Otherwise all SKUs are created in one transaction, each audited with its
   * SkuAdd event.
   */
  async upload(principal: Principal, upload: ReceivedUpload, actor: Actor) {
    const fields = parseFields(uploadSkusFields, upload.fields);
    if (!upload.file) throw badRequest('Please choose a file', { file: 'Please choose a file' });
    principal.scope.assert({ customerId: fields.customerId });
    if (!(await repo.customer(this.db, fields.customerId))) throw notFound('Customer');
    const rows = await readSkuSheet(upload.file);
    const { skus, errors } = validateSkuRows(rows, fields.customerId, fields.skuCategory);
    const [taken, uoms] = await Promise.all([repo.codesTaken(this.db, fields.customerId, skus.map((s) => s.skuCode)), repo.uoms(this.db)]);
    const knownUoms = new Set(uoms.map((u) => u.code));
    const upcRow = new Map<string, number>();
    for (const sku of skus) {
      const fail = (column: string, message: string) => errors.push({ row: sku.row, column, message });
      if (taken.has(sku.skuCode)) fail('SKU', `SKU code ${sku.skuCode} already exists for this client`);
      if (!knownUoms.has(sku.uom)) fail('UOM', `Unknown unit of measure '${sku.uom.slice(0, 16)}'`);
      if (!sku.upc) continue;
      if (upcRow.has(sku.upc)) fail('UPC', `Same UPC as row ${upcRow.get(sku.upc)}`);
      else upcRow.set(sku.upc, sku.row);
      const [owner] = await repo.barcodeOwners(this.db, fields.customerId, sku.upc);
      if (owner) fail('UPC', `Barcode ${sku.upc} is already used by SKU ${owner.sku_code} of this client`);
    }
    if (errors.length) throw unprocessable(rowErrorSummary(errors, 'uploaded'), rowErrorDetails(errors));

    const now = new Date().toISOString();
    await inTransaction(this.db, async (uow) => {
      const changes = [];
      for (const { row: _row, customerId, ...input } of skus) {
        const id = await repo.insert(uow.tx, { ...columnsOf(input), customer_id: customerId, created_at: now, updated_at: now });
        const after = toSku((await repo.findById(uow.tx, principal.scope, id))!);
        changes.push(skuChangeRecord({ action: 'create', entity: 'sku', subEvent: 'SkuAdd', customerId }, id, after));
      }
      // Every SKU's audit row and event in one statement each.
      await this.recorder.record(uow, actor, ...changes);
    });
    return { message: `${count(skus.length, 'SKU')} uploaded successfully`, data: { count: skus.length, fileName: upload.file.fileName } };
  }

  /** The upload template: its header row and one example SKU. */
  template() {
    const example: Record<(typeof SKU_UPLOAD_COLUMNS)[number], string | number> = {
      SKU: 'SKU-1001', Description: 'Example item', UOM: 'EA', UPC: '', 'Weight (kg)': 0.5, 'Length (cm)': 20, 'Width (cm)': 15,
      'Height (cm)': 10, 'Min Qty': 10, 'Max Qty': 100,
    };
    return toXlsx('SKUs', SKU_UPLOAD_COLUMNS.map((c) => ({ header: c, value: (r: typeof example) => r[c], width: 18 })), [example]);
  }

  /** Rules that need the database: unique code, known UOM, hazard class and its packing groups, free UPC. */
  private async checkFields(db: Executor, customerId: number, input: SkuFields, skuId?: number) {
    if (await repo.codeTaken(db, customerId, input.skuCode, skuId)) {
      throw conflict(`SKU code ${input.skuCode} already exists for this client`);
    }
    if (!(await repo.uomExists(db, input.uom))) throw badRequest('Unknown unit of measure', { uom: 'Unknown unit of measure' });
    await this.checkHazmat(db, input);
    await assertCodeFree(db, customerId, input.upc, { source: 'upc', id: skuId, skuId });
  }

  private async checkHazmat(db: Executor, input: SkuFields) {
    if (input.hazmatId == null) {
      if (input.packingGroup) throw badRequest('A packing group needs a hazard class', { packingGroup: 'A packing group needs a hazard class' });
      return;
    }
    const hazmat = await repo.hazmat(db, input.hazmatId);
    if (!hazmat) throw badRequest('Unknown hazard class', { hazmatId: 'Unknown hazard class' });
    const groups = hazmat.packing_groups ? hazmat.packing_groups.split(',') : [];
    if (groups.length && !input.packingGroup) {
      throw badRequest(`Please choose a packing group for class ${hazmat.class_code}`, { packingGroup: `Please choose a packing group for class ${hazmat.class_code}` });
    }
    if (!groups.length && input.packingGroup) {
      throw badRequest(`Class ${hazmat.class_code} has no packing groups`, { packingGroup: `Class ${hazmat.class_code} has no packing groups` });
    }
  }
}
