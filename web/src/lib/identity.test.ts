import { describe, expect, it } from 'vitest';
import { avatarText, headerTitle } from './identity';

describe('identity', () => {
  it("shows the username's first letter, or 'JOHN' when it is empty", () => {
    expect(avatarText('manager')).toBe('M');
    expect(avatarText('')).toBe('JOHN');
    expect(avatarText('   ')).toBe('JOHN');
    expect(avatarText(null)).toBe('JOHN');
  });
  it('titles the header with the service, else the menu item', () => {
    expect(headerTitle('Warehouse Management', 'SKU')).toBe('Warehouse Management');
    expect(headerTitle(null, 'SKU')).toBe('SKU');
    expect(headerTitle(null, undefined)).toBe('');
  });
});
