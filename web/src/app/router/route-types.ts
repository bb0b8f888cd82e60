/** Spec section 2 and 4: a route entry and the three route sets. Generic in the element so it can be tested without React. */
export const DEFAULT_PERMITTED_ROLE = 'user';

export interface RouteItem<E = unknown> {
  id: string;
  path?: string;
  paths?: string[];
  element: E;
  /** Message id of the screen's title (page title, coming-soon text). */
  titleId?: string;
  /** Default 'user'. */
  permittedRole?: string;
  /** Where an unauthenticated visit of an authorised route goes (or an authenticated visit of an anonymous one). */
  redirectPath?: string;
  /** Default true; false leaves the route out. */
  showRouteIf?: boolean;
}

export interface RouteSet<E = unknown> {
  routes: RouteItem<E>[];
  fallbackPath: string;
}

export interface RouteTable<E = unknown> {
  /** Sign-in and password screens. */
  anonymous: RouteSet<E>;
  /** App screens inside the layout; need a session and the permitted role. */
  authorised: RouteSet<E>;
  /** Error pages, reachable by everyone. */
  unauthorised: RouteSet<E>;
}

export type RouteSetName = keyof RouteTable;

export type ResolvedRoute<E = unknown> =
  | { kind: 'element'; set: RouteSetName; path: string; route: RouteItem<E> }
  | { kind: 'redirect'; set: RouteSetName; path: string; to: string; replace: true }
  | { kind: 'forbidden'; set: RouteSetName; path: string; route: RouteItem<E> };
