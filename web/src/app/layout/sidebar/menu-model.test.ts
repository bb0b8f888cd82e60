import { describe, expect, it } from 'vitest';
import type { NavModule } from '@bolx/contracts';
import { groupChainOfPath, leafOfPath, nextOpenKeys, toMenuNodes } from './menu-model';

const mod = (moduleId: number, moduleName: string, url: string | null, childModules: NavModule[] = []): NavModule => ({
  moduleId, moduleName, url, childModules, permission: 'write', permissionId: 1,
});
const modules = [
  mod(1, 'Dashboard', 'Dashboard'),
  mod(2, 'Admin', null, [mod(3, 'Warehouse', 'Warehouse'), mod(4, 'User', 'User')]),
  mod(5, 'Inventory', null, [mod(6, 'Move Items', 'Move')]),
  mod(7, 'Empty group', null, []),
];
const nodes = toMenuNodes(modules);

describe('sidebar menu model', () => {
  it('turns modules with children into groups and the others into /{url} links', () => {
    expect(nodes.map((n) => n.key)).toEqual(['/Dashboard', 'group-2', 'group-5']);
    expect(nodes[1].children?.map((c) => c.path)).toEqual(['/Warehouse', '/User']);
  });
  it('leaves out a form-only screen held to read (Create Location, Location Upload), keeping its readable siblings', () => {
    const read = (m: NavModule): NavModule => ({ ...m, permission: 'read', permissionId: 0 });
    const locations = toMenuNodes([mod(8, 'Location', null, [read(mod(9, 'Location', 'Location')), read(mod(10, 'Create Location', 'CreateLocation')), read(mod(11, 'Location Upload', 'LocationUpload'))])]);
    expect(locations[0].children?.map((c) => c.path)).toEqual(['/Location']);
    expect(toMenuNodes([mod(10, 'Create Location', 'CreateLocation')]).map((n) => n.path)).toEqual(['/CreateLocation']);
  });
  it("opens the current route's group (case-insensitively)", () => {
    expect(groupChainOfPath(nodes, '/user')).toEqual(['group-2']);
    expect(groupChainOfPath(nodes, '/Dashboard')).toEqual([]);
    expect(leafOfPath(nodes, '/MOVE')?.label).toBe('Move Items');
  });
  it('keeps one group open at a time', () => {
    expect(nextOpenKeys(nodes, ['group-2'], ['group-2', 'group-5'])).toEqual(['group-5']);
    expect(nextOpenKeys(nodes, ['group-2'], [])).toEqual([]);
  });
});
