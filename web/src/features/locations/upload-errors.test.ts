import { describe, expect, it } from 'vitest';
import { rowErrorsOf, uploadFileProblem } from './upload-errors';

describe('rowErrorsOf', () => {
  it('reads the server’s "row.column" details into rows sorted by row, without the repeated prefix', () => {
    const { rows, more } = rowErrorsOf({
      '4.Capacity': 'Row 4, Capacity: Please enter capacity!',
      '3.Location Code': 'Row 3, Location Code: Duplicate of row 2',
      '3.Location Type': "Row 3, Location Type: Unknown location type 'silo'",
      more: '…and 12 more errors',
    });
    expect(rows.map((r) => [r.row, r.column, r.message])).toEqual([
      [3, 'Location Code', 'Duplicate of row 2'],
      [3, 'Location Type', "Unknown location type 'silo'"],
      [4, 'Capacity', 'Please enter capacity!'],
    ]);
    expect(more).toBe('…and 12 more errors');
  });

  it('gives nothing for a plain-string or missing details', () => {
    expect(rowErrorsOf('The file is empty')).toEqual({ rows: [], more: null });
    expect(rowErrorsOf(undefined)).toEqual({ rows: [], more: null });
  });
});

describe('uploadFileProblem', () => {
  it('takes one CSV or XLSX file up to the server limit', () => {
    expect(uploadFileProblem({ name: 'Locations.CSV', size: 10 })).toBeNull();
    expect(uploadFileProblem({ name: 'a.xlsx', size: 10 })).toBeNull();
    expect(uploadFileProblem({ name: 'a.pdf', size: 10 })).toBe('type');
    expect(uploadFileProblem({ name: 'a.csv', size: 21 * 1024 * 1024 })).toBe('size');
  });
});
