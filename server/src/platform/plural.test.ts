import { describe, expect, it } from 'vitest';
import { count, noun, signedCount } from './plural.js';

describe('plural-aware counts', () => {
  it('uses the singular for exactly one and the plural otherwise, irregular plurals included', () => {
    expect(count(1, 'unit')).toBe('1 unit');
    expect(count(0, 'unit')).toBe('0 units');
    expect(count(2, 'unit')).toBe('2 units');
    expect(count(-1, 'unit')).toBe('-1 unit');
    expect(count(3, 'pick location')).toBe('3 pick locations');
    expect(count(1, 'difference')).toBe('1 difference');
    expect(count(2, 'entry', 'entries')).toBe('2 entries');
    expect(noun(1, 'row')).toBe('row');
    expect(noun(7, 'row')).toBe('rows');
    expect(signedCount(1, 'unit')).toBe('+1 unit');
    expect(signedCount(-4, 'unit')).toBe('-4 units');
    expect(signedCount(0, 'unit')).toBe('0 units');
  });
});
