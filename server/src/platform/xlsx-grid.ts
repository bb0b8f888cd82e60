import { readZipDirectory, unpackEntry, unreadable, type ZipEntry, type ZipLimits } from './zip.js';
import { badRequest, unprocessable } from './errors.js';

/**
 * The first worksheet of an .xlsx workbook as rows of cell texts, read by us rather than by exceljs so that
 * nothing is unpacked before the package's limits are checked (zip.ts), nothing is kept beyond the rows
 * asked for, and the event loop gets a turn every few milliseconds (`pause`). Cell texts follow what exceljs's
 * `cell.text` gave: numbers as JavaScript prints them, booleans as true/false, and a date-formatted number as
 * its day, YYYY-MM-DD.
 */

export interface GridRow {
  /** The spreadsheet's row number (1-based). */
  row: number;
  values: string[];
}

export interface GridLimits extends ZipLimits {
  /** A value in a later column refuses the file (422); empty cells out there are ignored. */
  maxColumns: number;
}

/** Yields to the event loop when the current slice of work has run long enough. */
export type Pause = () => Promise<void> | undefined;

const DEFAULT_PARTS = { workbook: 'xl/workbook.xml', workbookRels: 'xl/_rels/workbook.xml.rels', sharedStrings: 'xl/sharedStrings.xml', styles: 'xl/styles.xml' };

export async function* xlsxGrid(bytes: Buffer, fileName: string, limits: GridLimits, pause: Pause): AsyncGenerator<GridRow> {
  try {
    yield* workbookRows(bytes, fileName, limits, pause);
  } catch (err) {
    if (err instanceof MalformedXml) throw unreadable(fileName);
    throw err;
  }
}

async function* workbookRows(bytes: Buffer, fileName: string, limits: GridLimits, pause: Pause): AsyncGenerator<GridRow> {
  const entries = readZipDirectory(bytes, fileName, limits);
  const part = async (name: string | undefined) => {
    const entry = name ? findEntry(entries, name) : undefined;
    return entry ? (await unpackEntry(bytes, entry, fileName)).toString('utf8') : undefined;
  };
  const workbookXml = await part(DEFAULT_PARTS.workbook);
  if (!workbookXml) throw unreadable(fileName);
  const workbook = await readWorkbook(workbookXml, pause);
  if (!workbook.firstSheetRel) throw badRequest(`${fileName} has no sheet`, { file: `${fileName} has no sheet` });
  const rels = await readRelationships((await part(DEFAULT_PARTS.workbookRels)) ?? '', pause);
  const sheetPath = rels.get(workbook.firstSheetRel)?.target ?? 'xl/worksheets/sheet1.xml';
  const sharedPath = [...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target ?? DEFAULT_PARTS.sharedStrings;
  const stylesPath = [...rels.values()].find((r) => r.type.endsWith('/styles'))?.target ?? DEFAULT_PARTS.styles;

  const sharedStrings = await readSharedStrings((await part(sharedPath)) ?? '', pause);
  const dateStyles = await readDateStyles((await part(stylesPath)) ?? '', pause);
  const sheetXml = await part(sheetPath);
  if (sheetXml === undefined) throw unreadable(fileName);
  yield* sheetRows(sheetXml, { sharedStrings, dateStyles, date1904: workbook.date1904, maxColumns: limits.maxColumns, fileName }, pause);
}

function findEntry(entries: Map<string, ZipEntry>, name: string): ZipEntry | undefined {
  const direct = entries.get(name) ?? entries.get(`/${name}`);
  if (direct) return direct;
  const lower = name.toLowerCase();
  for (const [key, entry] of entries) if (key.replace(/^\//, '').toLowerCase() === lower) return entry;
  return undefined;
}

// ----- a small XML tokenizer: tags and text, enough for SpreadsheetML -------------------------------------

interface Tag { name: string; closing: boolean; selfClosing: boolean; attrs: string }
type Token = { tag: Tag } | { text: string };

/** Thrown by the tokenizer on XML it cannot read (an unclosed tag, comment or CDATA section). */
class MalformedXml extends Error {}

/**
 * The tokens of an XML text, with the element names' namespace prefixes dropped (x:row is row). Hand-written
 * with indexOf rather than one regular expression: every character is looked at a bounded number of times,
 * so no crafted text (a million unclosed "<!--") can make it quadratic.
 */
function* tokens(xml: string): Generator<Token> {
  let at = 0;
  while (at < xml.length) {
    if (xml[at] !== '<') {
      const next = xml.indexOf('<', at);
      const end = next < 0 ? xml.length : next;
      yield { text: decodeEntities(xml.slice(at, end)) };
      at = end;
      continue;
    }
    if (xml.startsWith('<!--', at)) at = closeOf(xml, at, '-->');
    else if (xml.startsWith('<![CDATA[', at)) {
      const end = closeOf(xml, at, ']]>');
      yield { text: xml.slice(at + 9, end - 3) };
      at = end;
    } else if (xml[at + 1] === '?' || xml[at + 1] === '!') at = closeOf(xml, at, '>');
    else {
      const end = tagEnd(xml, at);
      const closing = xml[at + 1] === '/';
      const selfClosing = xml[end - 2] === '/';
      const body = xml.slice(at + (closing ? 2 : 1), end - (selfClosing ? 2 : 1));
      const nameEnd = body.search(/[\s/]|$/);
      const name = body.slice(0, nameEnd);
      yield { tag: { name: name.slice(name.indexOf(':') + 1), closing, selfClosing, attrs: body.slice(nameEnd) } };
      at = end;
    }
  }
}

/** Where the construct opened at `at` ends, just past `close`. */
function closeOf(xml: string, at: number, close: string): number {
  const end = xml.indexOf(close, at + 2);
  if (end < 0) throw new MalformedXml();
  return end + close.length;
}

/** Where the tag opened at `at` ends, just past its '>' (a '>' inside a quoted attribute value does not end it). */
function tagEnd(xml: string, at: number): number {
  let quote = '';
  for (let i = at + 1; i < xml.length; i++) {
    const ch = xml[i];
    if (quote) { if (ch === quote) quote = ''; } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '>') return i + 1;
  }
  throw new MalformedXml();
}

/** Tokens handed over at a time; `pause` runs between batches, so every part is read in slices. */
const TOKENS_PER_BATCH = 4096;

/** The tokens of an XML text in batches, with the event loop given its turn (`pause`) between them. */
async function* pacedTokens(xml: string, pause: Pause): AsyncGenerator<Token[]> {
  let batch: Token[] = [];
  for (const t of tokens(xml)) {
    if (batch.push(t) < TOKENS_PER_BATCH) continue;
    yield batch;
    batch = [];
    await pause();
  }
  if (batch.length) yield batch;
}

const attrPatterns = new Map<string, RegExp>();
/** An attribute's value, whatever its namespace prefix (r:id is id). */
function attr(tag: Tag, name: string): string | undefined {
  let re = attrPatterns.get(name);
  if (!re) attrPatterns.set(name, re = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`));
  const m = re.exec(tag.attrs);
  return m ? decodeEntities(m[1] ?? m[2]) : undefined;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, code: string) => {
    if (code[0] !== '#') return ENTITIES[code] ?? whole;
    const n = code[1] === 'x' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
    return n <= 0x10ffff ? String.fromCodePoint(n) : whole;
  });
}

/** OOXML writes characters XML cannot hold as _xHHHH_ (a line break in a cell is _x000D_ before its \n). */
const decodeOoxml = (text: string) => text.replace(/_x([0-9A-Fa-f]{4})_/g, (_w, hex: string) => String.fromCharCode(parseInt(hex, 16)));

// ----- the workbook's small parts ----------------------------------------------------------------------

async function readWorkbook(xml: string, pause: Pause): Promise<{ firstSheetRel?: string; date1904: boolean }> {
  let firstSheetRel: string | undefined;
  let date1904 = false;
  for await (const batch of pacedTokens(xml, pause)) {
    for (const t of batch) {
      if (!('tag' in t) || t.tag.closing) continue;
      if (t.tag.name === 'workbookPr') date1904 = ['1', 'true'].includes(attr(t.tag, 'date1904') ?? '');
      if (t.tag.name === 'sheet' && !firstSheetRel) firstSheetRel = attr(t.tag, 'id');
    }
  }
  return { firstSheetRel, date1904 };
}

/** A workbook's relationships by id, targets resolved to package paths. */
async function readRelationships(xml: string, pause: Pause): Promise<Map<string, { type: string; target: string }>> {
  const rels = new Map<string, { type: string; target: string }>();
  for await (const batch of pacedTokens(xml, pause)) {
    for (const t of batch) {
      if (!('tag' in t) || t.tag.name !== 'Relationship' || t.tag.closing) continue;
      const id = attr(t.tag, 'Id');
      const target = attr(t.tag, 'Target');
      if (id && target) rels.set(id, { type: attr(t.tag, 'Type') ?? '', target: resolvePath('xl', target) });
    }
  }
  return rels;
}

function resolvePath(base: string, target: string): string {
  const segments = target.startsWith('/') ? [] : base.split('/');
  for (const s of target.split('/')) {
    if (s === '..') segments.pop();
    else if (s && s !== '.') segments.push(s);
  }
  return segments.join('/');
}

async function readSharedStrings(xml: string, pause: Pause): Promise<string[]> {
  const strings: string[] = [];
  let current = '';
  let inText = false;
  let phonetic = 0;
  for await (const batch of pacedTokens(xml, pause)) {
    for (const t of batch) {
      if ('text' in t) { if (inText && !phonetic) current += t.text; continue; }
      const { name, closing, selfClosing } = t.tag;
      if (name === 'si') {
        if (closing || selfClosing) strings.push(decodeOoxml(current));
        current = '';
      } else if (name === 't') inText = !closing && !selfClosing;
      else if (name === 'rPh') phonetic += closing ? -1 : selfClosing ? 0 : 1;
    }
  }
  return strings;
}

/** Excel's built-in number formats that show a date or a time. */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/**
 * A format code shows a date when, outside quoted text and [brackets], it uses y, m, d, h, s or b. Excel's
 * codes are at most 255 characters; a longer one is no date (and is never scanned).
 */
const isDateFormat = (code: string) => code.length <= 255 && /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

/** Which cell styles (index into cellXfs) show their number as a date. */
async function readDateStyles(xml: string, pause: Pause): Promise<boolean[]> {
  const custom = new Map<number, string>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  for await (const batch of pacedTokens(xml, pause)) {
    for (const t of batch) {
      if (!('tag' in t)) continue;
      const { tag } = t;
      if (tag.name === 'numFmt' && !tag.closing) custom.set(Number(attr(tag, 'numFmtId')), attr(tag, 'formatCode') ?? '');
      else if (tag.name === 'cellXfs') inCellXfs = !tag.closing && !tag.selfClosing;
      else if (tag.name === 'xf' && inCellXfs && !tag.closing) {
        const id = Number(attr(tag, 'numFmtId') ?? 0);
        styles.push(custom.has(id) ? isDateFormat(custom.get(id)!) : BUILTIN_DATE_FORMATS.has(id));
      }
    }
  }
  return styles;
}

// ----- the sheet ---------------------------------------------------------------------------------------

interface SheetContext { sharedStrings: string[]; dateStyles: boolean[]; date1904: boolean; maxColumns: number; fileName: string }

/** A column's number from a cell reference's letters (A1 → 1, AA7 → 27); 0 when it has none. */
function columnOf(ref: string | undefined): number {
  let n = 0;
  for (const ch of ref ?? '') {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
    if (n > 1e6) break;
  }
  return n;
}

/** An Excel serial day (days since 1899-12-30, or since 1904-01-01) as YYYY-MM-DD. */
function serialDay(serial: number, date1904: boolean): string {
  const ms = Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000);
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(serial) : date.toISOString().slice(0, 10);
}

interface Cell { column: number; type: string; style: number; value: string; inline: string }

function cellText(cell: Cell, ctx: SheetContext): string {
  switch (cell.type) {
    case 's': return ctx.sharedStrings[Number(cell.value)] ?? '';
    case 'inlineStr': return decodeOoxml(cell.inline);
    case 'str': case 'e': return decodeOoxml(cell.value);
    case 'b': return cell.value === '' ? '' : cell.value === '1' || cell.value === 'true' ? 'true' : 'false';
    case 'd': { const d = new Date(cell.value); return Number.isNaN(d.getTime()) ? cell.value : d.toISOString().slice(0, 10); }
    default: {
      if (cell.value.trim() === '') return '';
      const n = Number(cell.value);
      if (Number.isNaN(n)) return cell.value;
      return ctx.dateStyles[cell.style] ? serialDay(n, ctx.date1904) : String(n);
    }
  }
}

async function* sheetRows(xml: string, ctx: SheetContext, pause: Pause): AsyncGenerator<GridRow> {
  let inData = false;
  let rowNumber = 0;
  let values: string[] = [];
  let cell: Cell | null = null;
  let lastColumn = 0;
  let reading: 'v' | 't' | null = null;
  let inInline = false;
  let phonetic = 0;

  const endCell = () => {
    if (!cell) return;
    const text = cellText(cell, ctx);
    if (text !== '') {
      if (cell.column > ctx.maxColumns) {
        const message = `${ctx.fileName}: row ${rowNumber} has a value in column ${cell.column}; a sheet may use at most ${ctx.maxColumns} columns`;
        throw unprocessable(message, { file: message });
      }
      while (values.length < cell.column - 1) values.push('');
      values[cell.column - 1] = text;
    }
    cell = null;
  };

  sheet: for await (const batch of pacedTokens(xml, pause)) {
    for (const t of batch) {
      if ('text' in t) {
        if (cell && reading === 'v') cell.value += t.text;
        else if (cell && reading === 't' && inInline && !phonetic) cell.inline += t.text;
        continue;
      }
      const { name, closing, selfClosing } = t.tag;
      if (name === 'sheetData') {
        if (closing || selfClosing) break sheet;
        inData = true;
      } else if (!inData) {
        continue;
      } else if (name === 'row') {
        if (!closing) {
          rowNumber = Number(attr(t.tag, 'r')) || rowNumber + 1;
          values = [];
          lastColumn = 0;
        }
        if (closing || selfClosing) yield { row: rowNumber, values };
      } else if (name === 'c') {
        if (!closing) {
          lastColumn = columnOf(attr(t.tag, 'r')) || lastColumn + 1;
          cell = { column: lastColumn, type: attr(t.tag, 't') ?? 'n', style: Number(attr(t.tag, 's') ?? 0), value: '', inline: '' };
        }
        if (closing || selfClosing) endCell();
      } else if (name === 'v') {
        reading = closing || selfClosing ? null : 'v';
      } else if (name === 't') {
        reading = closing || selfClosing ? null : 't';
      } else if (name === 'is') {
        inInline = !closing && !selfClosing;
      } else if (name === 'rPh') {
        phonetic += closing ? -1 : selfClosing ? 0 : 1;
      }
    }
  }
}
