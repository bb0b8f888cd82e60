import { describe, expect, it } from 'vitest';
import type { PackageNode } from '@bolx/contracts';
import {
  childrenOf, flattenPackages, initialPackageDropdown, packageDropdownReducer, selectedPackageId, type PackageDropdownState,
} from './package-dropdown';

const node = (id: number, name: string, parent: number | null, children: PackageNode[] = []): PackageNode => ({
  packageid: id, uniqueId: id, skuId: 1, customerid: 1, skuCode: 'SKU', packageType: 'Case', packageName: name, parentPackageId: parent,
  quantity: 1, lengthCm: null, widthCm: null, heightCm: null, weightKg: null, gtin: null, createdAt: '', updatedAt: '',
  parentUniqueId: parent, childPackages: children,
});

const inner = node(3, 'Inner', 2);
const caseA = node(2, 'Case', 1, [inner]);
// A stray child listed under the pallet but naming another parent: the rule keeps only matching parentUniqueId.
const stray = node(9, 'Stray', 7);
const pallet = node(1, 'Pallet', null, [caseA, stray]);
const other = node(5, 'Other pallet', null);

const loaded = (parents: PackageNode[]) => packageDropdownReducer(initialPackageDropdown, { type: 'parentsLoaded', parents });

describe('package dropdown (spec section 4)', () => {
  it('selecting a parent sets the child list to its children with a matching parentUniqueId', () => {
    const s = packageDropdownReducer(loaded([pallet, other]), { type: 'parentSelected', parentId: 1 });
    expect(s.children.map((c) => c.uniqueId)).toEqual([2]);
    expect(s.parentId).toBe(1);
  });

  it('a parent without children gives an empty child list, and changing parent clears the child choice', () => {
    let s = packageDropdownReducer(loaded([pallet, other]), { type: 'parentSelected', parentId: 1 });
    s = packageDropdownReducer(s, { type: 'childSelected', childId: 2 });
    expect(selectedPackageId(s)).toBe(2);
    s = packageDropdownReducer(s, { type: 'parentSelected', parentId: 5 });
    expect(s.children).toEqual([]);
    expect(s.childId).toBeNull();
    expect(selectedPackageId(s)).toBe(5);
  });

  it('with no parents loaded the child list is empty', () => {
    const s = packageDropdownReducer(initialPackageDropdown, { type: 'parentSelected', parentId: 1 });
    expect(s.children).toEqual([]);
    expect(childrenOf([], 1)).toEqual([]);
  });

  it('reloading the parent list clears both lists and both choices', () => {
    let s: PackageDropdownState = packageDropdownReducer(loaded([pallet]), { type: 'parentSelected', parentId: 1 });
    s = packageDropdownReducer(s, { type: 'childSelected', childId: 2 });
    const reloading = packageDropdownReducer(s, { type: 'parentsReloading' });
    expect(reloading).toEqual(initialPackageDropdown);
    const reloaded = packageDropdownReducer(s, { type: 'parentsLoaded', parents: [other] });
    expect(reloaded).toEqual({ parents: [other], children: [], parentId: null, childId: null });
  });

  it('refuses a child that is not in the child list', () => {
    const s = packageDropdownReducer(packageDropdownReducer(loaded([pallet]), { type: 'parentSelected', parentId: 1 }), { type: 'childSelected', childId: 9 });
    expect(s.childId).toBeNull();
  });

  it('flattens the hierarchy so a parent can be chosen at any depth', () => {
    expect(flattenPackages([pallet, other]).map((f) => [f.node.uniqueId, f.path])).toEqual([
      [1, 'Pallet'], [2, 'Pallet › Case'], [3, 'Pallet › Case › Inner'], [9, 'Pallet › Stray'], [5, 'Other pallet'],
    ]);
    const flat = flattenPackages([pallet]).map((f) => f.node);
    expect(childrenOf(flat, 2).map((c) => c.uniqueId)).toEqual([3]);
  });
});
