import { describe, expect, it } from 'vitest';
import type { NavModule } from '@bolx/contracts';
import { canWriteModule } from './use-can-write';

const mod = (url: string | null, permission: string, childModules: NavModule[] = []): NavModule => ({
  moduleId: 1, moduleName: url ?? 'group', url, permission, permissionId: permission === 'read' ? 0 : 1, childModules,
});

describe('canWriteModule', () => {
  const modules = [mod(null, 'write', [mod('SKU', 'read'), mod('Dimensions', 'write')])];
  it('never lets a Client account write', () => {
    expect(canWriteModule('Client', modules, 'Dimensions')).toBe(false);
    expect(canWriteModule('Client', undefined, 'SKU')).toBe(false);
  });
  it("follows the module's permission, found at any depth", () => {
    expect(canWriteModule('Warehouse Staff', modules, 'SKU')).toBe(false);
    expect(canWriteModule('Warehouse Staff', modules, 'dimensions')).toBe(true);
  });
  it('leaves the decision to the server when the module list does not name the screen', () => {
    expect(canWriteModule('Super Administrator', [], 'SKU')).toBe(true);
  });
});
