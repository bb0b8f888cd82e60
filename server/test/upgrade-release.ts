/**
 * The release a rolling upgrade starts from: its commit (the cluster suite runs a node of it beside a node of this
 * checkout) and its last migration (every later one must only expand: upgrade-expand.test.ts). Moved on at each
 * release, to the commit that was released.
 */
export const LAST_RELEASE = {
  commit: 'ea86b236edf7436e0516adb5bb178173d911ce9f',
  lastMigration: '0023_floor',
};
