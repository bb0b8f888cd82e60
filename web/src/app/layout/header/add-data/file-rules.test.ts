import { describe, expect, it } from 'vitest';
import { DOCUMENTS, FILE_LIMITS, fileProblem, SHEETS } from './file-rules';

describe('file rules (spec section 5)', () => {
  it('sheets take Excel or CSV; order documents also take PDF', () => {
    expect(fileProblem({ name: 'Locations.CSV', size: 10 }, SHEETS)).toBeNull();
    expect(fileProblem({ name: 'a.xlsx', size: 10 }, SHEETS)).toBeNull();
    expect(fileProblem({ name: 'a.pdf', size: 10 }, SHEETS)).toBe('type');
    expect(fileProblem({ name: 'a.pdf', size: 10 }, DOCUMENTS)).toBeNull();
    expect(fileProblem({ name: 'a.docx', size: 10 }, DOCUMENTS)).toBe('type');
  });
  it('refuses an empty file and one over 10 MB', () => {
    expect(fileProblem({ name: 'a.csv', size: 0 }, SHEETS)).toBe('size');
    expect(fileProblem({ name: 'a.csv', size: 11 * 1024 * 1024 }, SHEETS)).toBe('size');
  });
  it('limits the count per form', () => {
    expect(FILE_LIMITS).toEqual({ orders: 5, ro: 3, sku: 1, inventory: 1, locations: 1, pallets: 1 });
  });
});
