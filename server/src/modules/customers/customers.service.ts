import type { Selectable } from 'kysely';
import type { Customer, CustomerInput, CustomerWarehouse, FilterLabel } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { CustomerTable } from '../../db/tables/customers.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { badRequest, conflict } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import type { ListRequest } from '../../platform/list.js';
import { toXlsx } from '../../platform/excel.js';
import type { Principal } from '../../platform/principal.js';
import type { Scope } from '../../platform/scope.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { requireCustomer } from './customer-access.js';
import { customerRepository as repo, type CustomerFilter } from './customers.repository.js';
import { CustomerDocumentService } from './documents.service.js';
import { IntegrationService } from './integrations.service.js';

type CustomerRow = Selectable<CustomerTable>;
type WarehouseRow = { customer_id: number; warehouse_id: number; code: string; name: string };

function toWarehouseEntry(w: WarehouseRow): CustomerWarehouse {
  return { uniqueid: w.warehouse_id, warehouseid: w.warehouse_id, customerId: w.customer_id, warehouseCode: w.code, warehouseName: w.name };
}

export function toCustomer(c: CustomerRow, warehouses: WarehouseRow[]): Customer {
  return {
    uniqueid: c.id, customerId: c.id, customerCode: c.code, customerName: c.name, contactPerson: c.contact_person,
    email: c.email, billingEmail: c.billing_email, phone: c.phone, address1: c.address1, address2: c.address2,
    city: c.city, state: c.state, zip: c.zip, country: c.country,
    adjustmentApprovalThreshold: c.adjustment_approval_threshold == null ? null : Number(c.adjustment_approval_threshold),
    allowBackorders: Number(c.allow_backorders) === 1, gs1CompanyPrefix: c.gs1_company_prefix ?? null,
    isActive: c.is_active === 1, warehouses: warehouses.filter((w) => w.customer_id === c.id).map(toWarehouseEntry),
    createdAt: c.created_at, updatedAt: c.updated_at,
  };
}

function columnsOf(input: CustomerInput) {
  return {
    code: input.customerCode.toUpperCase(), name: input.customerName, contact_person: input.contactPerson || null,
    email: input.email.toLowerCase(), billing_email: input.billingEmail ? input.billingEmail.toLowerCase() : null, phone: input.phone,
    address1: input.address1 || null, address2: input.address2 || null, city: input.city, state: input.state, zip: input.zip,
    country: input.country, adjustment_approval_threshold: input.adjustmentApprovalThreshold ?? null, is_active: input.isActive ? 1 : 0,
    ...(input.allowBackorders === undefined ? {} : { allow_backorders: input.allowBackorders ? 1 : 0 }),
    ...(input.gs1CompanyPrefix === undefined ? {} : { gs1_company_prefix: input.gs1CompanyPrefix || null }),
  };
}

/** Customers (client companies) and, through `carriers`, `channels` and `documents`, what hangs off them. */
export class CustomerService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  readonly carriers: IntegrationService;
  readonly channels: IntegrationService;
  readonly documents: CustomerDocumentService;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'config' | 'recorder'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.carriers = new IntegrationService(deps, 'carrier');
    this.channels = new IntegrationService(deps, 'channel');
    this.documents = new CustomerDocumentService(deps);
  }

  async list(principal: Principal, req: ListRequest<CustomerFilter>) {
    const filters = req.filters ?? {};
    principal.scope.assert({ warehouseId: filters.warehouseId });
    const page = await repo.list(this.db, this.dialect, principal.scope, req);
    const warehouses = await repo.warehousesOf(this.db, principal.scope, page.rows.map((c) => c.id));
    return { totalCount: page.total, items: page.rows.map((c) => toCustomer(c, warehouses)) };
  }

  async get(principal: Principal, id: number): Promise<Customer> {
    const row = await requireCustomer(this.db, principal, id);
    return toCustomer(row, await repo.warehousesOf(this.db, principal.scope, [id]));
  }

  async warehouses(principal: Principal, customerId: number): Promise<CustomerWarehouse[]> {
    await requireCustomer(this.db, principal, customerId);
    return (await repo.warehousesOf(this.db, principal.scope, [customerId])).map(toWarehouseEntry);
  }

  async download(principal: Principal, req: Pick<ListRequest<CustomerFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    const filters = req.filters ?? {};
    principal.scope.assert({ warehouseId: filters.warehouseId });
    const rows = await repo.listAll(this.db, this.dialect, principal.scope, req);
    const warehouses = await repo.warehousesOf(this.db, principal.scope, rows.map((c) => c.id));
    return toXlsx('Customers', [
      { header: 'Code', value: (c) => c.customerCode }, { header: 'Customer Name', value: (c) => c.customerName, width: 30 },
      { header: 'Contact Person', value: (c) => c.contactPerson, width: 22 }, { header: 'Email', value: (c) => c.email, width: 28 },
      { header: 'Phone', value: (c) => c.phone, width: 16 }, { header: 'City', value: (c) => c.city }, { header: 'State', value: (c) => c.state },
      { header: 'Country', value: (c) => c.country }, { header: 'Warehouses', value: (c) => c.warehouses.map((w) => w.warehouseName).join(', '), width: 30 },
      { header: 'Status', value: (c) => (c.isActive ? 'Active' : 'Inactive') },
    ], rows.map((c) => toCustomer(c, warehouses)));
  }

  async filterLabels(principal: Principal): Promise<FilterLabel[]> {
    const [warehouses, countries] = await Promise.all([repo.warehousesInScope(this.db, principal.scope), repo.countries(this.db, principal.scope)]);
    return [
      { key: 'isActive', label: 'Status', type: 'select', options: [{ label: 'All', value: 'all' }, { label: 'Active', value: 'active' }, { label: 'Inactive', value: 'inactive' }] },
      { key: 'warehouseId', label: 'Warehouse', type: 'select', options: [{ label: 'All', value: 0 }, ...warehouses.map((w) => ({ label: w.name, value: w.id }))] },
      { key: 'country', label: 'Country', type: 'select', options: countries.map((c) => ({ label: c.country!, value: c.country! })) },
    ];
  }

  /** A new customer served by the given warehouses; an Administrator who creates one is assigned to it. */
  async add(principal: Principal, input: CustomerInput, actor: Actor) {
    const values = columnsOf(input);
    const warehouseIds = await this.checkWarehouses(principal.scope, input.warehouseIds);
    if (await repo.findByCode(this.db, values.code)) throw duplicateCode();
    const now = new Date().toISOString();
    const customer = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      const id = await repo.insert(tx, { ...values, created_at: now, updated_at: now });
      await repo.addWarehouses(tx, id, warehouseIds);
      if (principal.role !== 'SuperAdministrator') await repo.assignUser(tx, principal.userId, id);
      const created = toCustomer((await repo.findById(tx, id))!, await repo.warehousesOf(tx, principal.scope, [id]));
      await this.recorder.record(uow, actor, {
        audit: { action: 'create', entity: 'customer', entityId: id, customerId: id, after: created },
        events: { target: 'ReceiveCustomerData', payload: { subEvent: 'AddCustomer', payload: created }, customerId: id },
      });
      return created;
    });
    return { message: 'Customer added successfully', data: customer };
  }

  /**
   * Updates a customer. The warehouses sent replace those the caller can see; warehouses outside the
   * caller's scope stay as they are, since the caller can neither see nor change them.
   */
  async update(principal: Principal, input: CustomerInput & { customerId: number }, actor: Actor) {
    const id = input.customerId;
    const before = await this.get(principal, id);
    const values = columnsOf(input);
    const wanted = await this.checkWarehouses(principal.scope, input.warehouseIds);
    const other = await repo.findByCode(this.db, values.code);
    if (other && other.id !== id) throw duplicateCode();
    const customer = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await repo.update(tx, id, { ...values, updated_at: new Date().toISOString() });
      const current = await repo.allWarehouseIds(tx, id);
      await repo.removeWarehouses(tx, id, current.filter((w) => principal.scope.canSeeWarehouse(w) && !wanted.includes(w)));
      await repo.addWarehouses(tx, id, wanted.filter((w) => !current.includes(w)));
      const after = toCustomer((await repo.findById(tx, id))!, await repo.warehousesOf(tx, principal.scope, [id]));
      await this.recorder.record(uow, actor, {
        audit: { action: 'update', entity: 'customer', entityId: id, customerId: id, before, after },
        events: { target: 'ReceiveCustomerData', payload: { subEvent: 'UpdateCustomer', payload: after }, customerId: id },
      });
      return after;
    });
    return { message: 'Customer updated successfully', data: customer };
  }

  /** The warehouses of a create/update: each must exist and be within the caller's warehouses. */
  private async checkWarehouses(scope: Scope, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    for (const w of unique) scope.assert({ warehouseId: w });
    const existing = await repo.existingWarehouseIds(this.db, unique);
    if (existing.length !== unique.length) throw badRequest('Unknown warehouse', { warehouseIds: 'Unknown warehouse' });
    return unique;
  }
}

const duplicateCode = () => conflict('A customer with this code already exists');
