import type { NavModule } from '@bolx/contracts';
import { isWriteOnlyScreen } from '../../../lib/access';

/**
 * Spec section 2, Shell: the sidebar is built from module data. A module with children is a collapsible group,
 * one without links to /{url}. The current route's group is open, and only one group is open at a time.
 */
export interface MenuNode {
  key: string;
  label: string;
  /** Leaf: the route it links to. */
  path?: string;
  /** Module name, for the icon. */
  name: string;
  children?: MenuNode[];
}

export const groupKey = (moduleId: number) => `group-${moduleId}`;

export function toMenuNodes(modules: readonly NavModule[]): MenuNode[] {
  const nodes: MenuNode[] = [];
  for (const m of modules) {
    if (m.childModules.length > 0) {
      const children = toMenuNodes(m.childModules);
      if (children.length) nodes.push({ key: groupKey(m.moduleId), label: m.moduleName, name: m.moduleName, children });
    } else if (m.url && !(m.permission.toLowerCase() === 'read' && isWriteOnlyScreen(m.url))) {
      // A form-only screen held to read would open on Unauthorized: not offered.
      const path = `/${m.url.replace(/^\/+/, '')}`;
      nodes.push({ key: path, label: m.moduleName, name: m.moduleName, path });
    }
  }
  return nodes;
}

const same = (a: string, b: string) => a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();

/** The chain of group keys leading to the leaf for this path (outermost first); empty when none matches. */
export function groupChainOfPath(nodes: readonly MenuNode[], pathname: string): string[] {
  for (const node of nodes) {
    if (node.path && same(node.path, pathname)) return [];
    if (node.children) {
      const inner = groupChainOfPath(node.children, pathname);
      if (inner.length || node.children.some((c) => c.path && same(c.path, pathname))) return [node.key, ...inner];
    }
  }
  return [];
}

/** The leaf for this path, if the menu has one. */
export function leafOfPath(nodes: readonly MenuNode[], pathname: string): MenuNode | undefined {
  for (const node of nodes) {
    if (node.path && same(node.path, pathname)) return node;
    const hit = node.children && leafOfPath(node.children, pathname);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * antd reports the open keys it wants; keep one top-level group at a time. Opening a top-level group closes
 * the others; opening a nested group keeps its ancestors.
 */
export function nextOpenKeys(nodes: readonly MenuNode[], current: readonly string[], requested: readonly string[]): string[] {
  const opened = requested.find((k) => !current.includes(k));
  if (!opened) return [...requested];
  if (nodes.some((n) => n.key === opened)) return [opened];
  return [...requested];
}
