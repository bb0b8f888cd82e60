import {
  ROLE_LABELS, ROLES, USER_MESSAGES, roleFromLabel, roleSchema,
  type AssignableModule, type CreateUserInput, type FilterLabel, type ModuleWarehouseUsersResponse, type Permission, type Role,
  type UpdateUserInput, type UserDetails, type UserListItem,
} from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { expandModuleGrants } from '../../db/seed/users.js';
import type { Actor } from '../../platform/actor.js';
import type { AuditEntry } from '../../platform/audit.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { toXlsx } from '../../platform/excel.js';
import type { ListRequest } from '../../platform/list.js';
import { hasModule, type Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import { hashPassword } from '../../platform/secrets.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { isTimeZone } from '../auth/auth.service.js';
import { userRepository as repo, type UserFilter, type UserRecord } from './users.repository.js';

/** Ids per statement when a download loads the assignments of every row. */
const ASSIGNMENT_BATCH = 500;

/** What a create or update will write, after every rule has passed. */
interface UserPlan {
  role: Role;
  columns: {
    username: string; email: string; first_name: string; last_name: string; phone: string | null; timezone: string;
    role: Role; customer_id: number | null; is_active: 0 | 1;
  };
  warehouseIds: number[];
  customerIds: number[];
  grants: Map<number, Permission>;
}

/** The target's current state, when a plan is for an update. */
interface Existing {
  id: number;
  warehouseIds: number[];
  customerIds: number[];
  grants: { moduleId: number; moduleKey: string; permission: string }[];
}

function toItem(u: UserRecord, warehouses: UserListItem['warehouses'], customers: UserListItem['customers']): UserListItem {
  const role = roleSchema.parse(u.role);
  return {
    uniqueid: u.id, userId: u.id, username: u.username, email: u.email, firstName: u.first_name, lastName: u.last_name,
    phone: u.phone, timezone: u.timezone, usertype: ROLE_LABELS[role], role, customerId: u.customer_id, isActive: u.is_active === 1,
    warehouses, customers, createdAt: u.created_at, updatedAt: u.updated_at,
  };
}

/** Groups assignment rows by user, each user's list de-duplicated and sorted by name. */
function byUser<T extends { userId: number }>(rows: T[], id: (r: T) => number, name: (r: T) => string) {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(r.userId) ?? [];
    if (!list.some((x) => id(x) === id(r))) list.push(r);
    out.set(r.userId, list);
  }
  for (const list of out.values()) list.sort((a, b) => name(a).localeCompare(name(b)));
  return out;
}

const unique = (ids: number[]) => [...new Set(ids)];

/** The role labels a caller may give: a Super Administrator any, an Administrator all but Super Administrator. */
export function assignableRoles(principal: Principal): Role[] {
  if (principal.role === 'SuperAdministrator') return [...ROLES];
  if (principal.role === 'Administrator') return ROLES.filter((r) => r !== 'SuperAdministrator');
  return [];
}

export class UserService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  /** The user form's dropdowns: what this caller may assign. */
  async formOptions(principal: Principal): Promise<ModuleWarehouseUsersResponse> {
    const [modules, warehouses] = await Promise.all([repo.modulesWithApps(this.db), repo.warehousesInScope(this.db, principal.scope)]);
    const grantable = (key: string) => hasModule(principal, key, 'read');
    const build = (appId: number, parentId: number | null): AssignableModule[] =>
      modules.filter((m) => m.appId === appId && m.parent_id === parentId).flatMap((m) => {
        const childModules = build(appId, m.id);
        if (!grantable(m.key) && childModules.length === 0) return [];
        return [{ moduleId: m.id, moduleKey: m.key, moduleName: m.name, url: m.url, childModules }];
      });
    const apps = [...new Map(modules.map((m) => [m.appId, { appId: m.appId, appKey: m.appKey, appName: m.appName }])).values()];
    return {
      usertypes: assignableRoles(principal).map((r) => ROLE_LABELS[r]),
      modules: apps.map((a) => ({ ...a, modules: build(a.appId, null) })).filter((a) => a.modules.length > 0),
      warehouses: warehouses.map((w) => ({ uniqueid: w.id, warehouseId: w.id, warehouseName: w.name, warehouseCode: w.code })),
      // Accounts default to UTC, which Intl lists under no region; the form must be able to show it.
      timezones: ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')],
    };
  }

  async customersByWarehouse(principal: Principal, warehouseId: number) {
    principal.scope.assert({ warehouseId });
    if (!(await repo.warehouseExists(this.db, warehouseId))) throw notFound('Warehouse');
    const rows = await repo.customersByWarehouse(this.db, principal.scope, warehouseId);
    return rows.map((c) => ({ uniqueid: c.id, customerId: c.id, customerName: c.name, warehouseId: c.warehouse_id }));
  }

  async list(principal: Principal, req: ListRequest<UserFilter>) {
    const page = await repo.list(this.db, this.dialect, principal.scope, req);
    return { totalCount: page.total, items: await this.withAssignments(this.db, page.rows, principal.scope) };
  }

  async download(principal: Principal, req: Pick<ListRequest<UserFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = await repo.listAll(this.db, this.dialect, principal.scope, req);
    const users: UserListItem[] = [];
    for (let i = 0; i < rows.length; i += ASSIGNMENT_BATCH) {
      users.push(...(await this.withAssignments(this.db, rows.slice(i, i + ASSIGNMENT_BATCH), principal.scope)));
    }
    return toXlsx('Users', [
      { header: 'Username', value: (u) => u.username, width: 20 }, { header: 'First Name', value: (u) => u.firstName },
      { header: 'Last Name', value: (u) => u.lastName }, { header: 'Email', value: (u) => u.email, width: 30 },
      { header: 'Phone', value: (u) => u.phone }, { header: 'User Type', value: (u) => u.usertype, width: 20 },
      { header: 'Warehouses', value: (u) => u.warehouses.map((w) => w.warehouseName).join(', '), width: 30 },
      { header: 'Clients', value: (u) => u.customers.map((c) => c.customerName).join(', '), width: 30 },
      { header: 'Time Zone', value: (u) => u.timezone, width: 22 }, { header: 'Status', value: (u) => (u.isActive ? 'Active' : 'Inactive') },
    ], users);
  }

  async filterLabels(principal: Principal): Promise<FilterLabel[]> {
    const warehouses = await repo.warehousesInScope(this.db, principal.scope);
    return [
      { key: 'role', label: 'User Type', type: 'select', options: ROLES.map((r) => ({ label: ROLE_LABELS[r], value: r })) },
      { key: 'warehouseId', label: 'Warehouse', type: 'select', options: warehouses.map((w) => ({ label: w.name, value: w.id })) },
      { key: 'isActive', label: 'Status', type: 'select', options: [{ label: 'All', value: 'all' }, { label: 'Active', value: 'active' }, { label: 'Inactive', value: 'inactive' }] },
    ];
  }

  /** One user as the caller may see them (assignments held to the caller's scope). */
  async details(principal: Principal, userId: number): Promise<UserDetails> {
    await this.findVisible(principal, userId);
    return this.snapshot(this.db, userId, principal.scope);
  }

  async create(principal: Principal, input: CreateUserInput, actor: Actor) {
    const plan = await this.plan(principal, input, null);
    const passwordHash = await hashPassword(input.password);
    const now = new Date().toISOString();
    const id = await inTransaction(this.db, async (uow) => {
      const userId = await repo.insert(uow.tx, {
        ...plan.columns, password_hash: passwordHash, email_verified: 0, default_app_id: null,
        password_changed_at: now, created_at: now, updated_at: now,
      });
      await this.writeAssignments(uow.tx, userId, plan);
      const after = await this.snapshot(uow.tx, userId);
      await this.record(uow, actor, 'AddUser', { action: 'create', entity: 'user', entityId: userId, customerId: after.customerId, after }, after);
      return userId;
    });
    return { message: 'User created successfully', data: await this.details(principal, id) };
  }

  /** Replaces the user's fields and warehouse, customer and module assignments (those the caller can reach). */
  async update(principal: Principal, userId: number, input: UpdateUserInput, actor: Actor) {
    const target = await this.findAdministrable(principal, userId);
    const newRole = roleFromLabel(input.usertype);
    if (userId === principal.userId && newRole !== target.role) throw badRequest('You cannot change your own user type', { usertype: 'You cannot change your own user type' });
    if (userId === principal.userId && !input.isActive) throw badRequest('You cannot disable your own account', { isActive: 'You cannot disable your own account' });
    const [stored, grants] = await Promise.all([repo.storedAssignments(this.db, userId), repo.moduleGrantsOf(this.db, userId)]);
    const plan = await this.plan(principal, input, { id: userId, ...stored, grants });
    await inTransaction(this.db, async (uow) => {
      const before = await this.snapshot(uow.tx, userId);
      await repo.update(uow.tx, userId, { ...plan.columns, updated_at: new Date().toISOString() });
      await this.writeAssignments(uow.tx, userId, plan);
      const reason = !plan.columns.is_active ? 'user_disabled'
        : plan.role !== target.role || plan.columns.customer_id !== target.customer_id ? 'user_access_changed' : null;
      if (reason) await repo.revokeSessions(uow.tx, userId, reason);
      const after = await this.snapshot(uow.tx, userId);
      await this.record(uow, actor, 'UpdateUser', { action: 'update', entity: 'user', entityId: userId, customerId: after.customerId, before, after }, after);
    });
    return { message: 'User updated successfully', data: await this.details(principal, userId) };
  }

  /** Enables or disables an account; disabling ends its sessions at once. */
  async setStatus(principal: Principal, userId: number, isActive: boolean, actor: Actor) {
    const target = await this.findAdministrable(principal, userId);
    if (userId === principal.userId && !isActive) throw badRequest('You cannot disable your own account');
    const message = isActive ? 'User enabled successfully' : 'User disabled successfully';
    if ((target.is_active === 1) === isActive) return { message, data: await this.details(principal, userId) };
    await inTransaction(this.db, async (uow) => {
      const before = await this.snapshot(uow.tx, userId);
      await repo.update(uow.tx, userId, { is_active: isActive ? 1 : 0, updated_at: new Date().toISOString() });
      if (!isActive) await repo.revokeSessions(uow.tx, userId, 'user_disabled');
      const after = await this.snapshot(uow.tx, userId);
      await this.record(uow, actor, 'UpdateUser', { action: isActive ? 'enable' : 'disable', entity: 'user', entityId: userId, customerId: after.customerId, before, after }, after);
    });
    return { message, data: await this.details(principal, userId) };
  }

  // ---- rules ----

  /** Checks every rule of a create or update and works out what to write. */
  private async plan(principal: Principal, input: CreateUserInput | UpdateUserInput, existing: Existing | null): Promise<UserPlan> {
    const role = roleFromLabel(input.usertype);
    if (!role) throw badRequest(USER_MESSAGES.usertype, { usertype: USER_MESSAGES.usertype });
    if (!assignableRoles(principal).includes(role)) throw forbidden(`You cannot create or edit a ${ROLE_LABELS[role]}`);
    if (!isTimeZone(input.timezone)) throw badRequest('Unknown time zone', { timezone: 'Unknown time zone' });
    const username = input.username.toLowerCase();
    const email = input.email.toLowerCase();
    await this.assertUnique(username, email, existing?.id);
    const access = role === 'Client' ? await this.clientAccess(principal, input.customerId) : await this.staffAccess(principal, role, input, existing);
    const grants = await this.moduleGrants(principal, input.modules, existing?.grants ?? []);
    return {
      role,
      columns: {
        username, email, first_name: input.firstName, last_name: input.lastName, phone: input.phone || null, timezone: input.timezone,
        role, customer_id: access.customerId, is_active: input.isActive ? 1 : 0,
      },
      warehouseIds: access.warehouseIds,
      customerIds: access.customerIds,
      grants,
    };
  }

  private async assertUnique(username: string, email: string, exceptId?: number) {
    const taken = await repo.conflicts(this.db, username, email, exceptId);
    if (taken.some((u) => u.username === username)) throw conflict('This username is already taken', 'Choose another username');
    if (taken.some((u) => u.email === email)) throw conflict('This e-mail address is already in use', 'Use another e-mail address');
  }

  /** A Client account belongs to one customer; its warehouses are that customer's, so none are stored. */
  private async clientAccess(principal: Principal, customerId: number | null | undefined) {
    if (!customerId) throw badRequest(USER_MESSAGES.client, { customerId: USER_MESSAGES.client });
    principal.scope.assert({ customerId });
    if ((await repo.customerWarehouses(this.db, [customerId])).length === 0) throw badRequest('Client not found', { customerId: 'Client not found' });
    return { customerId, warehouseIds: [] as number[], customerIds: [] as number[] };
  }

  /**
   * Staff get warehouses and customers within the caller's scope; on an update, assignments outside the
   * caller's scope (made by someone who sees more) are kept, since this caller cannot see them.
   */
  private async staffAccess(principal: Principal, role: Role, input: { warehouses: number[]; customers: number[] }, existing: Existing | null) {
    const scope = principal.scope;
    for (const warehouseId of input.warehouses) scope.assert({ warehouseId });
    for (const customerId of input.customers) scope.assert({ customerId });
    const known = new Set(await repo.existingWarehouseIds(this.db, input.warehouses));
    const unknown = input.warehouses.find((w) => !known.has(w));
    if (unknown) throw badRequest(`Warehouse ${unknown} not found`, { warehouses: `Warehouse ${unknown} not found` });
    const warehouseIds = unique([...(existing?.warehouseIds.filter((w) => !scope.canSeeWarehouse(w)) ?? []), ...input.warehouses]);
    if (role !== 'SuperAdministrator' && warehouseIds.length === 0) throw badRequest(USER_MESSAGES.warehouse, { warehouses: USER_MESSAGES.warehouse });

    const served = await repo.customerWarehouses(this.db, input.customers);
    for (const customerId of input.customers) {
      const rows = served.filter((r) => r.customerId === customerId);
      if (rows.length === 0) throw badRequest(`Client ${customerId} not found`, { customers: `Client ${customerId} not found` });
      if (!rows.some((r) => r.warehouseId != null && warehouseIds.includes(r.warehouseId))) {
        throw badRequest('A client is not served by the selected warehouses', { customers: `Client ${customerId} is not served by the selected warehouses` });
      }
    }
    const customerIds = unique([...(existing?.customerIds.filter((c) => !scope.canSeeCustomer(c)) ?? []), ...input.customers]);
    return { customerId: null, warehouseIds, customerIds };
  }

  /**
   * Module grants: a grant on a group covers its children; a caller may grant only what they hold, at most at
   * their own level. On an update, grants on modules the caller does not hold at all are kept.
   */
  private async moduleGrants(principal: Principal, requested: { moduleId: number; permission: Permission }[], current: Existing['grants']) {
    const catalogue = await repo.modulesWithApps(this.db);
    const byId = new Map(catalogue.map((m) => [m.id, m]));
    const byKey = new Map(catalogue.map((m) => [m.key, m]));
    const asKeys: Record<string, Permission> = {};
    for (const g of requested) {
      const m = byId.get(g.moduleId);
      if (!m) throw badRequest(`Module ${g.moduleId} not found`, { modules: `Module ${g.moduleId} not found` });
      asKeys[m.key] = g.permission;
    }
    const grants = new Map<number, Permission>();
    for (const g of current) if (!hasModule(principal, g.moduleKey, 'read')) grants.set(g.moduleId, g.permission === 'write' ? 'write' : 'read');
    for (const [key, permission] of expandModuleGrants(asKeys)) {
      const m = byKey.get(key);
      if (!m) continue;
      if (!hasModule(principal, key, permission)) throw forbidden(`You cannot grant ${permission} access to ${m.name}`);
      grants.set(m.id, permission);
    }
    return grants;
  }

  /** The user, if the caller may see them: 404 when there is no such user, 403 when they are outside the caller's warehouses. */
  private async findVisible(principal: Principal, userId: number): Promise<UserRecord> {
    const user = await repo.findVisible(this.db, principal.scope, userId);
    if (user) return user;
    if (await repo.findById(this.db, userId)) throw forbidden('This user is outside your warehouses');
    throw notFound('User');
  }

  /** As findVisible, and only a Super Administrator may change a Super Administrator. */
  private async findAdministrable(principal: Principal, userId: number) {
    const user = await this.findVisible(principal, userId);
    if (user.role === 'SuperAdministrator' && principal.role !== 'SuperAdministrator') throw forbidden('Only a Super Administrator can change a Super Administrator');
    return user;
  }

  // ---- reading and writing ----

  private async writeAssignments(tx: Executor, userId: number, plan: UserPlan) {
    await repo.replaceWarehouses(tx, userId, plan.warehouseIds);
    await repo.replaceCustomers(tx, userId, plan.customerIds);
    await repo.replaceModules(tx, userId, plan.grants);
  }

  /** Users with their warehouses and customers: two statements for the whole batch. */
  private async withAssignments(db: Executor, users: UserRecord[], scope: Scope): Promise<UserListItem[]> {
    const ids = users.map((u) => u.id);
    const [warehouseRows, customerRows] = await Promise.all([repo.warehousesOf(db, ids, scope), repo.customersOf(db, ids, scope)]);
    const warehouses = byUser(warehouseRows, (r) => r.warehouseId, (r) => r.warehouseName);
    const customers = byUser(customerRows, (r) => r.customerId, (r) => r.customerName);
    return users.map((u) => toItem(u,
      (warehouses.get(u.id) ?? []).map(({ warehouseId, warehouseName }) => ({ warehouseId, warehouseName })),
      (customers.get(u.id) ?? []).map(({ customerId, customerName }) => ({ customerId, customerName }))));
  }

  /** A user with assignments and module grants; the whole record (for audit and events) unless a scope is given. */
  private async snapshot(db: Executor, userId: number, scope: Scope = Scope.everything): Promise<UserDetails> {
    const user = await repo.findById(db, userId);
    if (!user) throw notFound('User');
    const [[item], modules] = await Promise.all([this.withAssignments(db, [user], scope), repo.moduleGrantsOf(db, userId)]);
    return {
      ...item, emailVerified: user.email_verified === 1,
      modules: modules.map((m) => ({ ...m, permission: m.permission === 'write' ? 'write' : 'read' })),
    };
  }

  /** The audit row, and ReceiveUserData after commit; the hub's payload carries warehouse and customer ids. */
  private async record(uow: UnitOfWork, actor: Actor, subEvent: 'AddUser' | 'UpdateUser', audit: AuditEntry, user: UserDetails) {
    const { modules: _modules, ...item } = user;
    await this.recorder.record(uow, actor, {
      audit,
      events: {
        target: 'ReceiveUserData',
        payload: { subEvent, payload: { ...item, warehouses: user.warehouses.map((w) => w.warehouseId), customers: user.customers.map((c) => c.customerId) } },
        warehouseId: null,
      },
    });
  }
}
