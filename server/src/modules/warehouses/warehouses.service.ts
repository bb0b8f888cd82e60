import type { Selectable } from 'kysely';
import type { FilterLabel, Warehouse } from '@bolx/contracts';
import type { Db, WarehouseTable } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { isTimeZone, type WarehouseTimeZones } from '../../platform/business-day.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import { toXlsx } from '../../platform/excel.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { warehouseRepository as repo, type WarehouseFilter } from './warehouses.repository.js';

export const WAREHOUSE_COLUMNS = [
  { key: 'warehouseCode', title: 'Code', sortable: true },
  { key: 'warehouseName', title: 'Warehouse Name', sortable: true },
  { key: 'city', title: 'City', sortable: true },
  { key: 'state', title: 'State', sortable: false },
  { key: 'country', title: 'Country', sortable: false },
  { key: 'timezone', title: 'Time Zone', sortable: false },
  { key: 'capacity', title: 'Capacity', sortable: true },
  { key: 'isActive', title: 'Status', sortable: false },
];

type WarehouseInput = {
  warehouseCode: string; warehouseName: string; address1?: string | null; address2?: string | null; city: string; state: string;
  zip: string; country: string; timezone: string; capacity: number; isActive: boolean;
};

export function toWarehouse(w: Selectable<WarehouseTable>): Warehouse {
  return {
    uniqueid: w.id, warehouseId: w.id, warehouseCode: w.code, warehouseName: w.name, address1: w.address1, address2: w.address2,
    city: w.city, state: w.state, zip: w.zip, country: w.country, timezone: w.timezone, capacity: w.capacity,
    isActive: w.is_active === 1, createdAt: w.created_at, updatedAt: w.updated_at,
  };
}

function columnsOf(input: WarehouseInput) {
  if (!isTimeZone(input.timezone)) throw badRequest('Unknown time zone', { timezone: 'Unknown time zone' });
  return {
    code: input.warehouseCode.toUpperCase(), name: input.warehouseName, address1: input.address1 ?? null, address2: input.address2 ?? null,
    city: input.city, state: input.state, zip: input.zip, country: input.country, timezone: input.timezone, capacity: input.capacity,
    is_active: input.isActive ? 1 : 0,
  };
}

export class WarehouseService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
  }

  async list(principal: Principal, req: ListRequest<WarehouseFilter>) {
    return { columns: WAREHOUSE_COLUMNS, ...toListPage(await repo.list(this.db, this.dialect, principal.scope, req), toWarehouse) };
  }

  async get(principal: Principal, id: number) {
    principal.scope.assert({ warehouseId: id });
    const row = await repo.findById(this.db, id);
    if (!row) throw notFound('Warehouse');
    return toWarehouse(row);
  }

  async download(principal: Principal, req: Pick<ListRequest<WarehouseFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = (await repo.listAll(this.db, this.dialect, principal.scope, req)).map(toWarehouse);
    return toXlsx('Warehouses', [
      { header: 'Code', value: (w) => w.warehouseCode }, { header: 'Warehouse Name', value: (w) => w.warehouseName, width: 30 },
      { header: 'Address', value: (w) => [w.address1, w.address2].filter(Boolean).join(', '), width: 30 },
      { header: 'City', value: (w) => w.city }, { header: 'State', value: (w) => w.state }, { header: 'Zip', value: (w) => w.zip },
      { header: 'Country', value: (w) => w.country }, { header: 'Time Zone', value: (w) => w.timezone, width: 22 },
      { header: 'Capacity', value: (w) => w.capacity }, { header: 'Status', value: (w) => (w.isActive ? 'Active' : 'Inactive') },
    ], rows);
  }

  filterLabels(): FilterLabel[] {
    return [{ key: 'isActive', label: 'Status', type: 'select', options: [{ label: 'All', value: 'all' }, { label: 'Active', value: 'active' }, { label: 'Inactive', value: 'inactive' }] }];
  }

  /** A new warehouse; an Administrator who creates one is assigned to it, so it stays in their scope. */
  async add(principal: Principal, input: WarehouseInput, actor: Actor) {
    const now = new Date().toISOString();
    const values = columnsOf(input);
    const warehouse = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      const id = await repo.insert(tx, { ...values, created_at: now, updated_at: now });
      if (principal.role !== 'SuperAdministrator') await repo.assignUser(tx, principal.userId, id);
      const created = toWarehouse((await repo.findById(tx, id))!);
      await this.recorder.record(uow, actor, {
        audit: { action: 'create', entity: 'warehouse', entityId: id, warehouseId: id, after: created },
        events: { target: 'ReceiveWareHousedata', payload: { subEvent: 'AddWarehouse', payload: created }, warehouseId: id },
      });
      return created;
    });
    return { message: 'Warehouse added successfully', data: warehouse };
  }

  async update(principal: Principal, input: WarehouseInput & { warehouseId: number }, actor: Actor) {
    const before = await this.get(principal, input.warehouseId);
    const values = columnsOf(input);
    const warehouse = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await repo.update(tx, input.warehouseId, { ...values, updated_at: new Date().toISOString() });
      const after = toWarehouse((await repo.findById(tx, input.warehouseId))!);
      await this.recorder.record(uow, actor, {
        audit: { action: 'update', entity: 'warehouse', entityId: input.warehouseId, warehouseId: input.warehouseId, before, after },
        events: { target: 'ReceiveWareHousedata', payload: { subEvent: 'UpdateWarehouse', payload: after }, warehouseId: input.warehouseId },
      });
      return after;
    });
    // Postings take their business day from the cached zone: a changed zone counts from now on (on this node at
    // once, on others within the cache's minute).
    if (before.timezone !== warehouse.timezone) this.timeZones.forget(input.warehouseId);
    return { message: 'Warehouse updated successfully', data: warehouse };
  }
}
