import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Hand-built ZIP packages for the upload tests: real .xlsx workbooks and the zip bombs that pose as them. The
 * writer is ours (not a library's) so a test can make a package lie — a size in its central directory that
 * its data does not have.
 */
export interface ZipPart {
  name: string;
  /** The part's bytes as stored: deflated (method 8) unless `stored`. */
  data: Buffer;
  stored?: boolean;
  /** What the part really unpacks to, and its CRC-32. */
  size: number;
  crc: number;
  /** The size the central directory states (defaults to the real one): a lie when they differ. */
  declaredSize?: number;
}

export const deflatedPart = (name: string, text: string | Buffer): ZipPart => {
  const bytes = Buffer.from(text);
  return { name, data: deflateRawSync(bytes), size: bytes.length, crc: crc32(bytes) };
};

/** A ZIP file of the parts, local headers first, then the central directory; `entryCount` may lie too (the 16-bit field). */
export function zipOf(parts: ZipPart[], entryCount = parts.length): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const method = p.stored ? 0 : 8;
    const declared = p.declaredSize ?? p.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, p.data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(method, 10);
    entry.writeUInt32LE(p.crc >>> 0, 16);
    entry.writeUInt32LE(p.data.length, 20);
    entry.writeUInt32LE(declared, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += 30 + name.length + p.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entryCount & 0xffff, 8);
  end.writeUInt16LE(entryCount & 0xffff, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
  + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
  + '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
  + '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const ROOT_RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
  + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK = '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
  + 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
  + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';
export const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = '</sheetData></worksheet>';

/** The parts of a one-sheet workbook around the given sheet part. */
export const workbookParts = (sheet: ZipPart): ZipPart[] => [
  deflatedPart('[Content_Types].xml', CONTENT_TYPES), deflatedPart('_rels/.rels', ROOT_RELS),
  deflatedPart('xl/workbook.xml', WORKBOOK), deflatedPart('xl/_rels/workbook.xml.rels', WORKBOOK_RELS), sheet,
];

/** Inline-string cells, so the sheet needs no shared-strings part: each row's texts from column A on. */
export function sheetXml(rows: string[][]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const body = rows.map((cells, i) => `<row r="${i + 1}">${cells.map((c) => `<c t="inlineStr"><is><t>${esc(c)}</t></is></c>`).join('')}</row>`).join('');
  return SHEET_HEAD + body + SHEET_TAIL;
}

/**
 * A sheet1.xml of `megabytes` MB of blank space inside <sheetData> (valid XML that deflates ~1000:1), built
 * from one deflated megabyte repeated — each block ends in a full flush, so the copies chain into one stream —
 * without ever holding the unpacked gigabytes. CRC-32 is computed over the real content.
 */
export function blankSheetPart(megabytes: number, declaredSize?: number): ZipPart {
  const block = Buffer.alloc(1024 * 1024, 0x20);
  const head = Buffer.from(SHEET_HEAD);
  const tail = Buffer.from(SHEET_TAIL);
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const deflatedBlock = deflateRawSync(block, flush);
  const data = Buffer.concat([deflateRawSync(head, flush), ...Array.from({ length: megabytes }, () => deflatedBlock), deflateRawSync(tail)]);
  let crc = crc32(head);
  for (let i = 0; i < megabytes; i++) crc = crc32(block, crc);
  crc = crc32(tail, crc);
  const size = head.length + megabytes * block.length + tail.length;
  return { name: 'xl/worksheets/sheet1.xml', data, size, crc, declaredSize: declaredSize ?? Math.min(size, 0xffffffff) };
}

/** A real workbook: the spreadsheet the bombs pose as. */
export const xlsxOf = (rows: string[][]) => zipOf(workbookParts(deflatedPart('xl/worksheets/sheet1.xml', sheetXml(rows))));

/** The zip bombs every spreadsheet upload must refuse fast, each posing as a workbook. */
export const ZIP_BOMBS = {
  /** ~2 GB of sheet, honestly declared, in about 2 MB. */
  'honest.xlsx': () => zipOf(workbookParts(blankSheetPart(2047))),
  /** The same ~2 GB sheet whose central directory says it unpacks to 4 KB. */
  'lying.xlsx': () => zipOf(workbookParts(blankSheetPart(2047, 4096))),
  /**
   * 400 MB of sheet declared as 39 MB: inside every limit the directory shows (size, ratio under 100 to 1), so
   * only the cap while unpacking catches it — after at most the 39 MB it declared.
   */
  'lying-within-limits.xlsx': () => zipOf(workbookParts(blankSheetPart(400, 39 * 1024 * 1024))),
  /** 100,000 tiny parts beside a workbook (the 16-bit entry count wraps, as it would). */
  'entries.xlsx': () => {
    // Empty stored parts with short names: 100,000 of them still fit under the uploads' 10 MB.
    const filler = Array.from({ length: 100_000 }, (_, i): ZipPart => ({ name: i.toString(36), data: Buffer.alloc(0), stored: true, size: 0, crc: 0 }));
    return zipOf([...workbookParts(deflatedPart('xl/worksheets/sheet1.xml', sheetXml([['SKU']]))), ...filler], 100_000 + 5);
  },
} as const;
