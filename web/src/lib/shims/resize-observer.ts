/**
 * Stands in for the 'resize-observer-polyfill' package antd's components import: every browser the portal supports
 * has ResizeObserver, and the polyfill would add ~9 kB gzipped to the sign-in route.
 */
export default globalThis.ResizeObserver;
