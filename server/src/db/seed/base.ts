import { APPS } from '@bolx/contracts';
import type { Db, Executor } from '../schema.js';
import { COUNTRIES } from './countries.js';

/**
 * Reference data every database needs: the app and module catalogue (kept in step with contracts on every
 * start, so a new module appears without a migration) and countries. Idempotent and quick.
 */
export async function syncReferenceData(db: Db): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (const [i, app] of APPS.entries()) {
      await tx.insertInto('app').values({ id: app.id, key: app.key, name: app.name, description: app.description, sort: i })
        .onConflict((oc) => oc.column('id').doUpdateSet({ key: app.key, name: app.name, description: app.description, sort: i }))
        .execute();
    }
    const existing = new Map((await tx.selectFrom('module').select(['id', 'key']).execute()).map((m) => [m.key, m.id]));
    let sort = 0;
    const walk = async (appId: number, mods: typeof APPS[number]['modules'], parentId: number | null) => {
      for (const m of mods) {
        const values = { app_id: appId, parent_id: parentId, key: m.key, name: m.name, url: m.url ?? null, sort: sort++ };
        let id = existing.get(m.key);
        if (id === undefined) {
          id = (await tx.insertInto('module').values(values).returning('id').executeTakeFirstOrThrow()).id;
        } else {
          await tx.updateTable('module').set(values).where('id', '=', id).execute();
        }
        if (m.children) await walk(appId, m.children, id);
      }
    };
    for (const app of APPS) await walk(app.id, app.modules, null);

    const haveCountries = await tx.selectFrom('country').select('id').limit(1).execute();
    if (haveCountries.length === 0) {
      for (const c of COUNTRIES) {
        const { id } = await tx.insertInto('country').values({ code: c.code, name: c.name }).returning('id').executeTakeFirstOrThrow();
        if (c.states.length) await tx.insertInto('state').values(c.states.map(([code, name]) => ({ country_id: id, code, name }))).execute();
      }
    }
  });
}

/** Module ids by key, for assigning modules to users. */
export async function moduleIdsByKey(db: Executor): Promise<Map<string, { id: number; appId: number; parentId: number | null }>> {
  const rows = await db.selectFrom('module').select(['id', 'key', 'app_id', 'parent_id']).execute();
  return new Map(rows.map((r) => [r.key, { id: r.id, appId: r.app_id, parentId: r.parent_id }]));
}
