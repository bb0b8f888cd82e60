import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download';

describe('download file name', () => {
  it('reads the name the server sends', () => {
    expect(fileNameFromDisposition('attachment; filename="users-2026-11-21.xlsx"', 'users.xlsx')).toBe('users-2026-11-21.xlsx');
    expect(fileNameFromDisposition('attachment; filename=plain.pdf', 'x')).toBe('plain.pdf');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", 'x')).toBe('résumé.pdf');
  });
  it('falls back when there is none', () => {
    expect(fileNameFromDisposition(null, 'users.xlsx')).toBe('users.xlsx');
    expect(fileNameFromDisposition('attachment', 'users.xlsx')).toBe('users.xlsx');
  });
});
