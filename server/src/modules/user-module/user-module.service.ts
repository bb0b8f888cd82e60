import { APPS, permissionIdOf, type NavModule, type Permission } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { forbidden } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { occupancyPercent } from '../locations/occupancy.js';
import { userModuleRepository as repo } from './user-module.repository.js';

export class UserModuleService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'recorder'>) {
    this.db = deps.db;
    this.recorder = deps.recorder;
  }

  /** The sidebar: the modules of the user's default app that the user holds, as a tree. */
  async getUserModules(principal: Principal) {
    const appId = await repo.defaultAppId(this.db, principal.userId);
    if (appId == null) return { appId: null, appName: null, modules: [] };
    const [mods, perms] = await Promise.all([
      repo.allModules(this.db, appId),
      principal.modules === 'all' ? Promise.resolve([]) : repo.userModulePermissions(this.db, principal.userId),
    ]);
    const held = new Map<number, Permission>(perms.map((p) => [p.module_id, p.permission as Permission]));
    const permissionOf = (id: number): Permission | undefined => (principal.modules === 'all' ? 'write' : held.get(id));
    const build = (parentId: number | null): NavModule[] =>
      mods.filter((m) => m.parent_id === parentId).flatMap((m) => {
        const childModules = build(m.id);
        // A group shows when the user holds it or any of its children; it is writable if any child is.
        const own = permissionOf(m.id) ?? (childModules.length ? (childModules.some((c) => c.permission === 'write') ? 'write' : 'read') : undefined);
        if (!own) return [];
        return [{ moduleId: m.id, url: m.url, moduleName: m.name, permission: own, permissionId: permissionIdOf(own), childModules }];
      });
    return { appId, appName: APPS.find((a) => a.id === appId)?.name ?? null, modules: build(null) };
  }

  async getWarehouseClient(principal: Principal) {
    const [warehouses, customers] = await Promise.all([
      repo.warehousesWithOccupancy(this.db, principal.scope),
      repo.customersByWarehouse(this.db, principal.scope),
    ]);
    return {
      warehouseData: warehouses.map((w) => ({
        uniqueid: w.id, warehouseId: w.id, warehouseName: w.name, warehouseCode: w.code, city: w.city, timeZone: w.timezone,
        capacity: w.capacity, usedLocations: Number(w.used), totalLocations: Number(w.total),
        occupancy: occupancyPercent(Number(w.used), Number(w.total)),
      })),
      customerData: customers.map((c) => ({ customerId: c.id, customerName: c.name, warehouseId: c.warehouse_id })),
    };
  }

  async getCountriesAndStates() {
    const rows = await repo.countriesAndStates(this.db);
    const byCountry = new Map<number, { uniqueid: number; name: string; code: string; states: { uniqueid: number; name: string; code: string }[] }>();
    for (const r of rows) {
      let c = byCountry.get(r.countryId);
      if (!c) byCountry.set(r.countryId, (c = { uniqueid: r.countryId, name: r.countryName, code: r.countryCode, states: [] }));
      if (r.stateId != null) c.states.push({ uniqueid: r.stateId, name: r.stateName ?? '', code: r.stateCode ?? '' });
    }
    return [...byCountry.values()];
  }

  async getAllUserApps(principal: Principal) {
    const [apps, held, defaultAppId] = await Promise.all([
      repo.apps(this.db),
      principal.modules === 'all' ? Promise.resolve(null) : repo.userAppIds(this.db, principal.userId),
      repo.defaultAppId(this.db, principal.userId),
    ]);
    return apps
      .filter((a) => held === null || held.includes(a.id))
      .map((a) => ({ appId: a.id, appName: a.name, appKey: a.key, description: a.description, isDefault: a.id === defaultAppId }));
  }

  async setDefaultApp(principal: Principal, appId: number, actor: Actor) {
    const apps = await this.getAllUserApps(principal);
    const app = apps.find((a) => a.appId === appId);
    if (!app) throw forbidden('This app is not assigned to you');
    const before = apps.find((a) => a.isDefault)?.appId ?? null;
    await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await repo.setDefaultApp(tx, principal.userId, appId);
      await this.recorder.record(uow, actor, { audit: { action: 'set_default_app', entity: 'user', entityId: principal.userId, before: { appId: before }, after: { appId } } });
    });
    return { message: `${app.appName} is now your default app` };
  }

  timezones(): string[] {
    return Intl.supportedValuesOf('timeZone');
  }
}
