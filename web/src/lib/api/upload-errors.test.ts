import { describe, expect, it } from 'vitest';
import { rowErrorsOf } from './upload-errors';

describe('rowErrorsOf', () => {
  it('reads the server’s "row.column" details into rows sorted by row, without the repeated prefix', () => {
    const { rows, notes } = rowErrorsOf({
      '4.Capacity': 'Row 4, Capacity: Please enter capacity!',
      '3.Location Code': 'Row 3, Location Code: Duplicate of row 2',
      '3.Location Type': "Row 3, Location Type: Unknown location type 'silo'",
      '12.SKU': "Row 12, SKU: No SKU of this client matches 'X'",
      more: '…and 12 more errors',
    });
    expect(rows.map((r) => [r.row, r.column, r.message])).toEqual([
      [3, 'Location Code', 'Duplicate of row 2'],
      [3, 'Location Type', "Unknown location type 'silo'"],
      [4, 'Capacity', 'Please enter capacity!'],
      [12, 'SKU', "No SKU of this client matches 'X'"],
    ]);
    expect(notes).toEqual(['…and 12 more errors']);
  });

  it('keeps a field message as a note and gives nothing for a plain-string or missing details', () => {
    expect(rowErrorsOf({ file: 'Please choose a file' })).toEqual({ rows: [], notes: ['Please choose a file'] });
    expect(rowErrorsOf('The file is empty')).toEqual({ rows: [], notes: [] });
    expect(rowErrorsOf(undefined)).toEqual({ rows: [], notes: [] });
    expect(rowErrorsOf(['a'])).toEqual({ rows: [], notes: [] });
  });
});
