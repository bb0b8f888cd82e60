import type { Key, ReactNode } from 'react';
import type { ListRequest } from './list-args';

/**
 * Batch actions of the list page: rows picked on any page, or every row matching the filters (which may be far
 * more than a page). Plain state and functions, so the rules are unit-tested without React.
 */
export interface BatchSelection<T> {
  /** 'rows': the picked rows (kept across pages); 'allMatching': every row the list's filters and search match. */
  mode: 'rows' | 'allMatching';
  keys: Key[];
  rows: T[];
}

export const NO_SELECTION: BatchSelection<never> = { mode: 'rows', keys: [], rows: [] };

/** What a batch action runs on: the picked rows, or the list request (filters, search, sort; no paging) and how many it matches. */
export type BatchTarget<T> =
  | { kind: 'rows'; keys: Key[]; rows: T[] }
  | { kind: 'allMatching'; request: Omit<ListRequest, 'pageNumber' | 'pageSize'>; total: number };

export interface BatchAction<T> {
  key: string;
  /** The button's text; a function gets how many rows it would run on (0 before any is picked). */
  label: string | ((count: number) => string);
  icon?: ReactNode;
  danger?: boolean;
  /** Whether it can run on every matching row (the server takes the list request); else on picked rows only. */
  allMatching?: boolean;
  /** Why it cannot run on these rows now (shown as a tooltip), or undefined when it can. */
  disabledReason?: (target: BatchTarget<T>) => string | undefined;
  run: (target: BatchTarget<T>) => unknown;
}

export type BatchEvent<T> =
  | { type: 'pick'; keys: Key[]; rows: T[] }
  | { type: 'allMatching' }
  | { type: 'clear' };

export function batchReducer<T>(state: BatchSelection<T>, event: BatchEvent<T>): BatchSelection<T> {
  switch (event.type) {
    case 'pick':
      // antd hands rows of other pages as undefined when it kept only their keys; keep the rows we knew.
      return { mode: 'rows', keys: event.keys, rows: event.keys.map((k, i) => event.rows[i] ?? state.rows[state.keys.indexOf(k)]).filter((r): r is T => r !== undefined) };
    case 'allMatching':
      return { mode: 'allMatching', keys: [], rows: [] };
    case 'clear':
      return NO_SELECTION as BatchSelection<T>;
  }
}

/**
 * Which rows a list request matches, whatever page is shown: a change of filters or search changes the set, so a
 * selection made under the old one is dropped (sorting and paging keep it).
 */
export function matchingKey(req: ListRequest): string {
  const filters = Object.entries(req.filters).filter(([, v]) => v !== undefined && v !== '').sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([filters, req.searchQuery]);
}

/** What a batch action gets for the current selection; undefined when nothing is selected. */
export function batchTarget<T>(selection: BatchSelection<T>, req: ListRequest, total: number): BatchTarget<T> | undefined {
  if (selection.mode === 'allMatching') {
    if (total === 0) return undefined;
    const { pageNumber: _page, pageSize: _size, ...request } = req;
    return { kind: 'allMatching', request, total };
  }
  return selection.keys.length ? { kind: 'rows', keys: selection.keys, rows: selection.rows } : undefined;
}

/** How many rows an action would touch. */
export const targetCount = (target: BatchTarget<unknown> | undefined) => (!target ? 0 : target.kind === 'rows' ? target.keys.length : target.total);

/** Why an action cannot run on the target now (a text to show), or undefined when it can. */
export function actionBlock<T>(action: BatchAction<T>, target: BatchTarget<T> | undefined, t: (id: string) => string): string | undefined {
  if (!target) return t('table.batch.pickFirst');
  if (target.kind === 'allMatching' && !action.allMatching) return t('table.batch.rowsOnly');
  return action.disabledReason?.(target);
}
