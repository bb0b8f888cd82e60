import { describe, expect, it } from 'vitest';
import { uploadFileProblem } from './upload-errors';

describe('uploadFileProblem', () => {
  it('takes one CSV or XLSX file up to the server limit', () => {
    expect(uploadFileProblem({ name: 'Locations.CSV', size: 10 })).toBeNull();
    expect(uploadFileProblem({ name: 'a.xlsx', size: 10 })).toBeNull();
    expect(uploadFileProblem({ name: 'a.pdf', size: 10 })).toBe('type');
    expect(uploadFileProblem({ name: 'a.csv', size: 21 * 1024 * 1024 })).toBe('size');
  });
});
