import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import { LABEL_SIZES, SYMBOLOGIES } from '@bolx/contracts';
import { badRequest } from '../../platform/errors.js';
import { Code128Cache, QUIET_MODULES, drawCode128 } from '../../platform/pdf/code128.js';
import { drawQr, qrSymbol } from '../../platform/pdf/qr.js';

export type LabelSize = (typeof LABEL_SIZES)[number];
export type Symbology = (typeof SYMBOLOGIES)[number];

/** What one label shows. */
export interface LabelData {
  code: string;
  warehouseName: string;
}

interface Box { x: number; y: number; w: number; h: number }

/** Label stock in PDF points (72 per inch): one label per page, or A4 sheets of 3 × 10. */
const STOCK: Record<LabelSize, { page: [number, number]; columns: number; rows: number; marginX: number; marginY: number }> = {
  '4x6': { page: [288, 432], columns: 1, rows: 1, marginX: 0, marginY: 0 },
  '4x2': { page: [288, 144], columns: 1, rows: 1, marginX: 0, marginY: 0 },
  '2x1': { page: [144, 72], columns: 1, rows: 1, marginX: 0, marginY: 0 },
  'A4-sheet': { page: [595.28, 841.89], columns: 3, rows: 10, marginX: 14, marginY: 21 },
};

const CODE128_SCALE = 3;
/**
 * Narrowest bar a label prints, in points (about 7 mil): narrower bars blur into each other on a 200–300 dpi printer.
 * Below the pick list's 13 mil (platform/pdf/code128.ts): a sheet of 30 labels with both symbols has little width.
 */
const MIN_MODULE_PT = 0.5;

/** A QR code's white border: four modules (bwip-js draws a module 2 units wide), which scanners need to find it. */
const QR_QUIET = { padding: 8, backgroundcolor: 'FFFFFF' };

/** QR code as a PNG with its quiet zone, at BWIPP's default medium error correction (survives a scuffed label). */
export function qrPng(text: string, scale = 4): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'qrcode', text, scale, ...QR_QUIET });
}

export function qrSvg(text: string): string {
  return bwipjs.toSVG({ bcid: 'qrcode', text, ...QR_QUIET });
}

/** A Code 128 with its quiet zones and the text printed under it, for the /QRCode screen. */
const CODE128_READABLE = {
  bcid: 'code128', height: 12, includetext: true, textxalign: 'center', textsize: 9,
  paddingwidth: QUIET_MODULES, paddingheight: 2, backgroundcolor: 'FFFFFF',
} as const;

export function code128ReadablePng(text: string): Promise<Buffer> {
  return bwipjs.toBuffer({ ...CODE128_READABLE, text, scale: CODE128_SCALE });
}

export function code128ReadableSvg(text: string): string {
  return bwipjs.toSVG({ ...CODE128_READABLE, text });
}

/** The label boxes of one page of the stock, in reading order. */
function cellsOf(size: LabelSize): Box[] {
  const s = STOCK[size];
  const w = (s.page[0] - 2 * s.marginX) / s.columns;
  const h = (s.page[1] - 2 * s.marginY) / s.rows;
  const cells: Box[] = [];
  for (let r = 0; r < s.rows; r++) for (let c = 0; c < s.columns; c++) cells.push({ x: s.marginX + c * w, y: s.marginY + r * h, w, h });
  return cells;
}

/** The largest font size (up to `max`) at which `text` fits `width`. */
function fittingSize(doc: PDFKit.PDFDocument, font: string, text: string, width: number, max: number): number {
  const atOne = doc.font(font).fontSize(1).widthOfString(text);
  return Math.max(4, Math.min(max, atOne > 0 ? width / atOne : max));
}

/**
 * Where the barcodes go in the space left under the text. Wide spaces put the QR code beside the Code 128;
 * tall ones stack them. Gaps keep each symbol's quiet zone clear of the other.
 */
function barcodeBoxes(area: Box, symbology: Symbology): { linear?: Box; qr?: Box } {
  const square = (x: number, y: number, side: number): Box => ({ x, y, w: side, h: side });
  if (symbology === 'code128') return { linear: area };
  if (symbology === 'qr') {
    const side = Math.min(area.w, area.h);
    return { qr: square(area.x + (area.w - side) / 2, area.y + (area.h - side) / 2, side) };
  }
  if (area.w >= area.h * 1.6) {
    const side = area.h;
    const gap = side * 0.2;
    return { qr: square(area.x, area.y, side), linear: { x: area.x + side + gap, y: area.y, w: area.w - side - gap, h: area.h } };
  }
  const linearH = area.h * 0.35;
  const gap = area.h * 0.08;
  const side = Math.min(area.w, area.h - linearH - gap);
  return { linear: { ...area, h: linearH }, qr: square(area.x + (area.w - side) / 2, area.y + linearH + gap, side) };
}

function drawLabel(doc: PDFKit.PDFDocument, cell: Box, label: LabelData, symbology: Symbology): void {
  const pad = Math.max(4, Math.min(cell.w, cell.h) * 0.06);
  const inner: Box = { x: cell.x + pad, y: cell.y + pad, w: cell.w - 2 * pad, h: cell.h - 2 * pad };

  const nameSize = Math.min(14, Math.max(5, inner.h * 0.08));
  doc.font('Helvetica').fontSize(nameSize).fillColor('black')
    .text(label.warehouseName, inner.x, inner.y, { width: inner.w, height: nameSize * 1.2, lineBreak: false, ellipsis: true });
  const codeSize = fittingSize(doc, 'Helvetica-Bold', label.code, inner.w, inner.h * 0.2);
  const codeY = inner.y + nameSize * 1.25;
  doc.font('Helvetica-Bold').fontSize(codeSize).text(label.code, inner.x, codeY, { width: inner.w, lineBreak: false });

  const top = codeY + codeSize * 1.15;
  const boxes = barcodeBoxes({ x: inner.x, y: top, w: inner.w, h: inner.y + inner.h - top }, symbology);
  if (boxes.linear) drawLinear(doc, boxes.linear, label.code);
  if (boxes.qr) drawQr(doc, qrSymbol(label.code), boxes.qr.x, boxes.qr.y, boxes.qr.w);
}

const bars = new Code128Cache();

/** Code 128 across the box with its quiet zones (vector bars); refuses a code too long to scan at this width. */
function drawLinear(doc: PDFKit.PDFDocument, box: Box, code: string): void {
  const symbol = bars.get(code);
  const x = symbol ? box.w / (symbol.modules + 2 * QUIET_MODULES) : 0;
  if (!symbol || x < MIN_MODULE_PT) {
    throw badRequest(`Location code ${code} is too long for a readable Code 128 on this label; choose a larger label or one symbology`);
  }
  drawCode128(doc, symbol, box.x, box.y, x, box.h);
}

/** Location labels as one PDF: the code large, the warehouse name, and the code as Code 128 and/or QR. */
export async function labelsPdf(labels: LabelData[], size: LabelSize, symbology: Symbology): Promise<Buffer> {
  const stock = STOCK[size];
  const cells = cellsOf(size);
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, info: { Title: 'Location labels', Creator: 'BOLX-WMS' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => { doc.on('end', resolve); doc.on('error', reject); });
  for (const [i, label] of labels.entries()) {
    const slot = i % cells.length;
    if (slot === 0) doc.addPage({ size: stock.page, margin: 0 });
    drawLabel(doc, cells[slot], label, symbology);
  }
  doc.end();
  await finished;
  return Buffer.concat(chunks);
}
