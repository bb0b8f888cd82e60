import type { PackageNode } from '@bolx/contracts';

/**
 * The package dropdown pair (spec section 4, Package dropdown): a parent list and a child list.
 * - Selecting a parent sets the child list to the children of that parent with a matching parentUniqueId.
 * - With no parents loaded, the child list is empty.
 * - Reloading the parent list clears both lists (and both selections).
 */
export interface PackageDropdownState {
  parents: PackageNode[];
  children: PackageNode[];
  parentId: number | null;
  childId: number | null;
}

export type PackageDropdownAction =
  | { type: 'parentsReloading' }
  | { type: 'parentsLoaded'; parents: PackageNode[] }
  | { type: 'parentSelected'; parentId: number | null }
  | { type: 'childSelected'; childId: number | null };

export const initialPackageDropdown: PackageDropdownState = { parents: [], children: [], parentId: null, childId: null };

/** The children of `parentId` among the loaded parents: only those whose parentUniqueId names that parent. */
export function childrenOf(parents: PackageNode[], parentId: number | null): PackageNode[] {
  if (parentId == null || parents.length === 0) return [];
  const parent = parents.find((p) => p.uniqueId === parentId);
  return (parent?.childPackages ?? []).filter((c) => c.parentUniqueId === parentId);
}

export function packageDropdownReducer(state: PackageDropdownState, action: PackageDropdownAction): PackageDropdownState {
  switch (action.type) {
    case 'parentsReloading':
      return initialPackageDropdown;
    case 'parentsLoaded':
      return { ...initialPackageDropdown, parents: action.parents };
    case 'parentSelected':
      return { ...state, parentId: action.parentId, children: childrenOf(state.parents, action.parentId), childId: null };
    case 'childSelected':
      return { ...state, childId: state.children.some((c) => c.uniqueId === action.childId) ? action.childId : null };
  }
}

/** The package the pair points at: the chosen child, else the chosen parent, else none. */
export const selectedPackageId = (s: PackageDropdownState): number | null => s.childId ?? s.parentId;

/**
 * Every package of the hierarchy, depth first, each with its path ("Pallet › Case"), so the parent list can
 * offer a package at any depth; each keeps its childPackages for the child list.
 */
export function flattenPackages(roots: PackageNode[], path: string[] = []): { node: PackageNode; path: string }[] {
  return roots.flatMap((node) => {
    const here = [...path, node.packageName];
    return [{ node, path: here.join(' › ') }, ...flattenPackages(node.childPackages, here)];
  });
}
