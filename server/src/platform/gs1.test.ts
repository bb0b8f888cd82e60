import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { buildSscc, gs1CheckDigit, gs1Text, isValidSscc } from './gs1.js';
import { drawCode128, gs1128 } from './pdf/code128.js';
import { pdfBarcodes, withTools } from '../../test/support/pdf-readers.js';

describe('SSCC-18', () => {
  it('check digits match the GS1 General Specifications examples', () => {
    // GS1 General Specifications, SSCC example: (00) 1 0614141 123456789 7, and the GTIN-13 4006381333931.
    expect(gs1CheckDigit('10614141123456789')).toBe(7);
    expect(gs1CheckDigit('400638133393')).toBe(1);
  });

  it('is extension digit, company prefix, serial padded to fill 16 digits, check digit', () => {
    expect(buildSscc('0614141', 1, 123456789)).toBe('106141411234567897');
    expect(buildSscc('0614141234', 0, 42)).toMatch(/^00614141234000042\d$/);
    expect(isValidSscc(buildSscc('0614141234', 0, 42))).toBe(true);
    expect(isValidSscc('106141411234567890')).toBe(false);
  });

  it('refuses a serial the prefix has no room for, and a prefix that is not 7–10 digits', () => {
    expect(() => buildSscc('0614141234', 0, 1_000_000)).toThrow(/no SSCC serial references left/);
    expect(() => buildSscc('12345', 0, 1)).toThrow(/7 to 10 digits/);
  });
});

withTools('GS1-128', () => {
  it('a drawn GS1-128 reads back with its application identifiers', async () => {
    const text = gs1Text([['00', '106141411234567897'], ['420', '10001'], ['400', 'PO-1']]);
    const symbol = gs1128(text)!;
    expect(symbol).not.toBeNull();
    const doc = new PDFDocument({ size: [432, 288], margin: 0 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve) => doc.on('end', resolve));
    drawCode128(doc, symbol, 10, 40, 1.2, 100);
    doc.end();
    await done;
    const [read] = pdfBarcodes(Buffer.concat(chunks));
    // zbarimg prints FNC1 after a variable-length AI as GS (0x1d); the fixed-length (00) and (420)'s data run on.
    expect(read.replace(/\x1d/g, '|')).toBe('0010614141123456789742010001|400PO-1');
  });

  it('refuses an SSCC with a wrong check digit', () => {
    expect(gs1128('(00)106141411234567890')).toBeNull();
  });
});
