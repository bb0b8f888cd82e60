import { DEFAULT_PAGE_SIZE, FIRST_PAGE } from '@bolx/contracts';

/**
 * The list rules of spec section 4, Live events, as pure functions over a list's cached answer:
 * - a record that is already listed (matched by its unique id) is replaced in place;
 * - otherwise it goes to the top of the list — only on page 1 — and the total count goes up by 1;
 * - a local edit (the notify flag) replaces the entry with the updated record and never inserts;
 * - while filters or a search are active the list is reloaded instead of guessed at: whether the record still
 *   matches is the server's call (a listed record is still replaced at once, so the row never shows stale data);
 * - a delete removes the record by id.
 * Package, barcode, attribute and kit events apply only to the open SKU and customer (`concernsOpenSku`).
 */

/** A paged list answer ({items, totalCount}) or a plain array (the per-SKU lists). */
export type ListData<T> = T[] | { items: T[]; totalCount: number };

export type RecordId = number | string;

export type LiveChange<T> =
  /** `notify`: the change is this tab's own edit (the mutation's answer), not an event from the hub. */
  | { type: 'upsert'; item: T; notify?: boolean }
  | { type: 'delete'; id: RecordId };

/** What the list on screen is showing. */
export interface ListView {
  pageNumber: number;
  pageSize: number;
  /** Filters or a search query are active. */
  filtered: boolean;
}

export interface LiveOutcome<T> {
  /** The next cached answer; the same object when nothing changed. */
  next: ListData<T>;
  /** Whether the list must be fetched again from the server. */
  reload: boolean;
}

const itemsOf = <T>(list: ListData<T>): T[] => (Array.isArray(list) ? list : list.items);

function withItems<T>(list: ListData<T>, items: T[], countDelta: number): ListData<T> {
  if (Array.isArray(list)) return items;
  return { ...list, items, totalCount: Math.max(0, list.totalCount + countDelta) };
}

/** Applies one live change to a list answer (see the rules above). */
export function applyLiveChange<T>(
  list: ListData<T>,
  change: LiveChange<T>,
  view: ListView,
  idOf: (item: T) => RecordId,
): LiveOutcome<T> {
  const items = itemsOf(list);
  if (change.type === 'delete') {
    const kept = items.filter((item) => !sameId(idOf(item), change.id));
    if (kept.length === items.length) return { next: list, reload: false };
    return { next: withItems(list, kept, -1), reload: false };
  }

  const id = idOf(change.item);
  const at = items.findIndex((item) => sameId(idOf(item), id));
  if (at >= 0) {
    const replaced = items.slice();
    replaced[at] = change.item;
    return { next: withItems(list, replaced, 0), reload: view.filtered };
  }
  // An unlisted record: a local edit never inserts (its record is on another page, or filtered out).
  if (change.notify) return { next: list, reload: view.filtered };
  if (view.filtered) return { next: list, reload: true };
  if (view.pageNumber !== FIRST_PAGE) return { next: withItems(list, items, +1), reload: false };
  const inserted = [change.item, ...items];
  // A paged list keeps its page size: the new record pushes the last one on to page 2.
  if (!Array.isArray(list) && inserted.length > view.pageSize) inserted.length = view.pageSize;
  return { next: withItems(list, inserted, +1), reload: false };
}

/** Ids arrive as numbers from the API and sometimes as strings from elsewhere; 7 and '7' are one record. */
const sameId = (a: RecordId, b: RecordId) => String(a) === String(b);

/** The list request body every list call sends (DESIGN.md, API conventions). */
export interface ListArgsLike {
  filters?: unknown;
  searchQuery?: string;
  pageNumber?: number;
  pageSize?: number;
}

/** List arguments that choose a page and an order, not which records match. */
const PAGING_KEYS = new Set(['pageNumber', 'pageSize', 'sort']);

/**
 * Whether a list request has filters or a search active: any argument other than paging and sort that holds a
 * value other than empty, 0 (ALL, spec section 4, Header filters) or 'all' — the search query, `filters`, and
 * scope arguments such as a customer id.
 */
export function hasActiveFilters(args: unknown): boolean {
  if (!args || typeof args !== 'object') return false;
  return Object.entries(args).some(([key, value]) => !PAGING_KEYS.has(key) && isActiveValue(value));
}

function isActiveValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0) return false;
  if (typeof value === 'string') return value.trim() !== '' && value.toLowerCase() !== 'all';
  if (Array.isArray(value)) return value.some(isActiveValue);
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).some(isActiveValue);
  return true;
}

/** The view of a list request; a plain-array list (no paging arguments) is one page with no filters. */
export function viewOf(args: unknown, filtered = hasActiveFilters(args)): ListView {
  const a = (args && typeof args === 'object' ? args : {}) as ListArgsLike;
  return {
    pageNumber: Number.isInteger(a.pageNumber) && (a.pageNumber as number) > 0 ? (a.pageNumber as number) : FIRST_PAGE,
    pageSize: Number.isInteger(a.pageSize) && (a.pageSize as number) > 0 ? (a.pageSize as number) : DEFAULT_PAGE_SIZE,
    filtered,
  };
}

/** The SKU a detail screen has open, with its customer. */
export interface OpenSku {
  skuId: number;
  customerId: number;
}

/** Package, barcode, attribute and kit events apply only when they match the open SKU and customer. */
export function concernsOpenSku(event: { skuId?: number; customerId?: number }, open: OpenSku): boolean {
  return event.skuId === open.skuId && event.customerId === open.customerId;
}
