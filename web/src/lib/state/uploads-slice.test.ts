import { describe, expect, it } from 'vitest';
import {
  initialUploadsState, percentOf, runningKinds, uploadFailed, uploadProgressed, uploadRemoved, uploadSent, uploadShrunk, uploadStarted,
  uploadSucceeded, uploadsReducer, uploadVisibilityToggled, type UploadsState,
} from './uploads-slice';

const run = (...actions: Parameters<typeof uploadsReducer>[1][]) => actions.reduce<UploadsState>((s, a) => uploadsReducer(s, a), initialUploadsState);
const start = (id: string, kind: 'LOC' | 'RO' = 'LOC') => uploadStarted({ id, kind, title: `${id}.csv`, total: 1000 });

describe('uploads slice', () => {
  it('starts at completed 0 of total, visible, as a card', () => {
    const s = run(start('a'));
    expect(s.items).toEqual([{ id: 'a', kind: 'LOC', title: 'a.csv', total: 1000, completed: 0, phase: 'uploading', visible: true, circle: false, message: null, rowErrors: [], notes: [] }]);
    expect(percentOf(s.items[0])).toBe(0);
  });

  it('follows real progress, never backwards nor past the total', () => {
    let s = run(start('a'), uploadProgressed({ id: 'a', completed: 250 }));
    expect(percentOf(s.items[0])).toBe(25);
    s = uploadsReducer(s, uploadProgressed({ id: 'a', completed: 100 }));
    expect(s.items[0].completed).toBe(250);
    s = uploadsReducer(s, uploadProgressed({ id: 'a', completed: 5000 }));
    expect(s.items[0].completed).toBe(1000);
  });

  it('goes processing when sent, then done with the server’s text', () => {
    let s = run(start('a'), uploadSent('a'));
    expect(s.items[0]).toMatchObject({ phase: 'processing', completed: 1000 });
    expect(percentOf(s.items[0])).toBe(100);
    s = uploadsReducer(s, uploadProgressed({ id: 'a', completed: 10 }));
    expect(s.items[0].completed).toBe(1000);
    s = uploadsReducer(s, uploadSucceeded({ id: 'a', message: '3 locations uploaded successfully' }));
    expect(s.items[0]).toMatchObject({ phase: 'done', message: '3 locations uploaded successfully' });
  });

  it('a failure keeps its row errors and comes back into view', () => {
    const s = run(start('a'), uploadVisibilityToggled('a'), uploadShrunk({ id: 'a', circle: true }),
      uploadFailed({ id: 'a', message: '2 rows have errors', rowErrors: [{ row: 3, column: 'SKU', message: 'Unknown' }], notes: ['more'] }));
    expect(s.items[0]).toMatchObject({ phase: 'failed', message: '2 rows have errors', visible: true, circle: false, notes: ['more'] });
    expect(s.items[0].rowErrors).toHaveLength(1);
  });

  it('hides, shrinks to a circle and back, and removes one card of several', () => {
    let s = run(start('a'), start('b', 'RO'), uploadVisibilityToggled('a'), uploadShrunk({ id: 'b', circle: true }));
    expect(s.items.map((i) => [i.id, i.visible, i.circle])).toEqual([['a', false, false], ['b', true, true]]);
    s = uploadsReducer(s, uploadVisibilityToggled('a'));
    s = uploadsReducer(s, uploadShrunk({ id: 'b', circle: false }));
    expect(s.items.map((i) => [i.visible, i.circle])).toEqual([[true, false], [true, false]]);
    s = uploadsReducer(s, uploadRemoved('a'));
    expect(s.items.map((i) => i.id)).toEqual(['b']);
  });

  it('lists the kinds still running, for the cards’ "Uploading..." badge', () => {
    const s = run(start('a'), start('b', 'RO'), start('c'), uploadSucceeded({ id: 'a', message: 'ok' }), uploadFailed({ id: 'b', message: 'no' }));
    expect(runningKinds(s)).toEqual(['LOC']);
    expect(runningKinds(uploadsReducer(s, uploadSent('c')))).toEqual(['LOC']);
    expect(runningKinds(uploadsReducer(s, uploadRemoved('c')))).toEqual([]);
  });

  it('ignores actions for an unknown or removed upload', () => {
    const s = run(start('a'), uploadRemoved('a'), uploadProgressed({ id: 'a', completed: 5 }), uploadSucceeded({ id: 'a', message: 'x' }));
    expect(s.items).toEqual([]);
  });
});
