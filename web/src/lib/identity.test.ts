import { describe, expect, it } from 'vitest';
import { avatarText, headerTitle, userIdOfToken } from './identity';

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

describe('userIdOfToken', () => {
  const token = (claims: object) => `e30.${btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.sig`;

  it('reads the user id from the access token’s subject', () => {
    expect(userIdOfToken(token({ sub: '42', role: 'WarehouseStaff' }))).toBe(42);
    expect(userIdOfToken(token({ sub: '7', name: 'ü?>' }))).toBe(7);
  });

  it('is null without a token, or for one that does not read as a user id', () => {
    expect(userIdOfToken(null)).toBeNull();
    expect(userIdOfToken('not-a-token')).toBeNull();
    expect(userIdOfToken('a.!!!.b')).toBeNull();
    expect(userIdOfToken(token({ sub: 'admin' }))).toBeNull();
  });
});
