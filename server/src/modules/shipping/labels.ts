import PDFDocument from 'pdfkit';
import { gs1Text, type Gs1Element } from '../../platform/gs1.js';
import { Code128Cache, QUIET_MODULES, drawCode128, gs1128, type Code128 } from '../../platform/pdf/code128.js';
import { fitted } from '../../platform/pdf/pdf-document.js';

/** What one 4x6 label shows: one carton of a shipment. */
export interface LabelData {
  shipmentNumber: string;
  soNumber: string | null;
  reference: string | null;
  accountName: string;
  serviceName: string;
  shipFrom: { name: string; lines: string[] };
  shipTo: { name: string; lines: string[]; postalCode: string };
  packageNo: number;
  packageCount: number;
  weightKg: number | null;
  trackingNumber: string;
  sscc: string | null;
  shipDate: string;
}

/** 4 × 6 inches in points. */
export const LABEL = { width: 288, height: 432, margin: 10 } as const;
const INNER = LABEL.width - 2 * LABEL.margin;
/** The narrowest module a 203 dpi printer and zbarimg at 200 dpi still read (0.26 mm). */
const MIN_MODULE = 0.75;

const kg = (w: number | null) => (w === null ? '—' : `${(Math.round(w * 10) / 10).toFixed(1)} kg`);

/** Labels as one PDF of 4x6 pages: the carrier label of each carton, or its GS1-128 SSCC label. */
export async function labelsPdf(labels: LabelData[], kind: 'carrier' | 'sscc'): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, size: [LABEL.width, LABEL.height], info: { Title: `${kind === 'sscc' ? 'SSCC' : 'Shipping'} labels (${labels.length})`, Creator: 'BOLX-WMS' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => { doc.on('end', resolve); doc.on('error', reject); });
  const codes = new Code128Cache();
  for (const label of labels) {
    doc.addPage({ size: [LABEL.width, LABEL.height], margin: 0 });
    if (kind === 'sscc') ssccLabel(doc, label);
    else carrierLabel(doc, codes, label);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

function text(doc: PDFKit.PDFDocument, value: string, x: number, y: number, width: number, size: number, bold = false): void {
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).fillColor('black');
  doc.text(fitted(doc, value, width), x, y, { lineBreak: false });
}

function rule(doc: PDFKit.PDFDocument, y: number, weight = 1): void {
  doc.moveTo(LABEL.margin, y).lineTo(LABEL.width - LABEL.margin, y).lineWidth(weight).strokeColor('black').stroke();
}

function addressBlock(doc: PDFKit.PDFDocument, title: string, a: { name: string; lines: string[] }, x: number, y: number, width: number, big: boolean): number {
  text(doc, title, x, y, width, 6);
  text(doc, a.name, x, y + 8, width, big ? 12 : 8, true);
  let at = y + (big ? 23 : 18);
  for (const line of a.lines) {
    text(doc, line, x, at, width, big ? 10 : 7, big);
    at += big ? 12 : 9;
  }
  return at;
}

/** Centres a symbol of `width` points (quiet zones included) across the label. */
const centred = (width: number) => LABEL.margin + (INNER - width) / 2;

function carrierLabel(doc: PDFKit.PDFDocument, codes: Code128Cache, l: LabelData): void {
  const m = LABEL.margin;
  addressBlock(doc, 'FROM', l.shipFrom, m, m, INNER * 0.6, false);
  // The service, large, top right: the dock sorts by it.
  doc.rect(m + INNER * 0.62, m, INNER * 0.38, 52).lineWidth(2).stroke();
  doc.font('Helvetica-Bold').fontSize(11).text(fitted(doc, l.serviceName, INNER * 0.38 - 8), m + INNER * 0.62 + 4, m + 10, { width: INNER * 0.38 - 8, align: 'center', lineBreak: false });
  text(doc, l.accountName, m + INNER * 0.62 + 4, m + 32, INNER * 0.38 - 8, 7);
  rule(doc, 74, 2);
  const toBottom = addressBlock(doc, 'SHIP TO', l.shipTo, m, 80, INNER, true);
  rule(doc, Math.max(toBottom + 4, 170), 2);

  const facts: [string, string][] = [
    ['WEIGHT', kg(l.weightKg)], ['CARTON', `${l.packageNo} of ${l.packageCount}`], ['SHIP DATE', l.shipDate],
    ['SHIPMENT', l.shipmentNumber], ['ORDER', l.soNumber ?? '—'], ['REF', l.reference ?? '—'],
  ];
  const top = Math.max(toBottom + 10, 176);
  facts.forEach(([k, v], i) => {
    const x = m + (i % 3) * (INNER / 3);
    const y = top + Math.floor(i / 3) * 24;
    text(doc, k, x, y, INNER / 3 - 4, 6);
    text(doc, v, x, y + 8, INNER / 3 - 4, 9, true);
  });
  rule(doc, top + 52, 2);

  // The tracking number as Code 128, as wide as the label allows.
  text(doc, 'TRACKING #', m, top + 58, INNER, 7);
  const symbol = codes.get(l.trackingNumber);
  if (symbol) {
    const module = Math.max(MIN_MODULE, Math.min(1.6, INNER / (symbol.modules + 2 * QUIET_MODULES)));
    drawCode128(doc, symbol, centred((symbol.modules + 2 * QUIET_MODULES) * module), top + 70, module, 80);
  }
  doc.font('Helvetica-Bold').fontSize(12).fillColor('black').text(l.trackingNumber, m, top + 156, { width: INNER, align: 'center', lineBreak: false });
  if (l.sscc) text(doc, `SSCC ${l.sscc}`, m, LABEL.height - m - 10, INNER, 7);
}

/** A GS1-128 symbol of these elements, and the module width it fits the label at; null when it does not fit or encode. */
function fit(elements: Gs1Element[]): { symbol: Code128; module: number } | null {
  const symbol = gs1128(gs1Text(elements));
  if (!symbol) return null;
  const module = Math.min(1.2, INNER / (symbol.modules + 2 * QUIET_MODULES));
  return module >= MIN_MODULE ? { symbol, module } : null;
}

/** "(00) 0 0614141 123456789 0": the SSCC as people read it under the bars. */
export function ssccHumanReadable(sscc: string, prefixLength = 7): string {
  return `(00) ${sscc[0]} ${sscc.slice(1, 1 + prefixLength)} ${sscc.slice(1 + prefixLength, 17)} ${sscc[17]}`;
}

/**
 * The GS1 logistic label of a carton: from / to at the top, the data in words in the middle, then the barcodes —
 * (420) ship-to postal code with (400) the customer's purchase order (in one symbol when it fits, else two), and the
 * SSCC (00) last and lowest, each with its human-readable line.
 */
function ssccLabel(doc: PDFKit.PDFDocument, l: LabelData): void {
  const m = LABEL.margin;
  addressBlock(doc, 'FROM', l.shipFrom, m, m, INNER / 2 - 4, false);
  addressBlock(doc, 'TO', l.shipTo, m + INNER / 2 + 4, m, INNER / 2 - 4, false);
  rule(doc, 70, 1.5);
  const facts: [string, string][] = [
    ['SSCC', l.sscc ?? '—'], ['SHIP TO POST', l.shipTo.postalCode || '—'], ['PURCHASE ORDER', l.reference ?? '—'], ['CARTON', `${l.packageNo} of ${l.packageCount}`],
  ];
  facts.forEach(([k, v], i) => {
    const x = m + (i % 2) * (INNER / 2);
    const y = 76 + Math.floor(i / 2) * 24;
    text(doc, k, x, y, INNER / 2 - 4, 6);
    text(doc, v, x, y + 8, INNER / 2 - 4, 9, true);
  });
  rule(doc, 126, 1.5);

  const postal = l.shipTo.postalCode.replace(/\s/g, '').toUpperCase();
  const routing: Gs1Element[] = [];
  if (postal) routing.push(['420', postal]);
  if (l.reference) routing.push(['400', l.reference]);
  const together = routing.length ? fit(routing) : null;
  const groups = together ? [routing] : routing.map((e) => [e]);
  let y = 134;
  for (const group of groups) {
    const placed = fit(group);
    if (!placed) continue; // a PO with characters GS1 does not allow stays in words above
    drawCode128(doc, placed.symbol, centred((placed.symbol.modules + 2 * QUIET_MODULES) * placed.module), y, placed.module, 60);
    doc.font('Helvetica').fontSize(8).fillColor('black').text(group.map(([ai, d]) => `(${ai}) ${d}`).join(' '), m, y + 63, { width: INNER, align: 'center', lineBreak: false });
    y += 82;
  }
  if (l.sscc) {
    const sscc = fit([['00', l.sscc]]);
    const bottom = LABEL.height - m - 100;
    if (sscc) drawCode128(doc, sscc.symbol, centred((sscc.symbol.modules + 2 * QUIET_MODULES) * sscc.module), Math.max(y, bottom), sscc.module, 80);
    doc.font('Helvetica-Bold').fontSize(10).fillColor('black').text(ssccHumanReadable(l.sscc), m, Math.max(y, bottom) + 84, { width: INNER, align: 'center', lineBreak: false });
  }
}

/** ZPL's field data escapes: ^ and ~ are commands, so they go as hex with ^FH. */
const zplText = (s: string) => s.replace(/[\^~\\]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
const fd = (s: string) => `^FH\\^FD${zplText(s)}^FS`;

/** One carrier label in ZPL II for a 4x6 label at 203 dpi (812 × 1218 dots), UTF-8. */
export function carrierLabelZpl(l: LabelData): string {
  const lines: string[] = ['^XA', '^CI28', '^PW812', '^LL1218', '^LH0,0'];
  let y = 30;
  lines.push(`^FO30,${y}^A0N,20,20${fd('FROM')}`);
  y += 24;
  for (const line of [l.shipFrom.name, ...l.shipFrom.lines]) { lines.push(`^FO30,${y}^A0N,24,24${fd(line)}`); y += 28; }
  lines.push(`^FO500,30^GB282,140,4^FS`, `^FO510,60^A0N,36,36^FB262,1,0,C${fd(l.serviceName)}`, `^FO510,110^A0N,22,22^FB262,1,0,C${fd(l.accountName)}`);
  lines.push('^FO30,200^GB752,4,4^FS');
  y = 215;
  lines.push(`^FO30,${y}^A0N,20,20${fd('SHIP TO')}`);
  y += 26;
  lines.push(`^FO30,${y}^A0N,40,40${fd(l.shipTo.name)}`);
  y += 46;
  for (const line of l.shipTo.lines) { lines.push(`^FO30,${y}^A0N,34,34${fd(line)}`); y += 40; }
  y = Math.max(y + 10, 480);
  lines.push(`^FO30,${y}^GB752,4,4^FS`);
  y += 15;
  const facts: [string, string][] = [
    ['WEIGHT', kg(l.weightKg)], ['CARTON', `${l.packageNo} of ${l.packageCount}`], ['SHIP DATE', l.shipDate],
    ['SHIPMENT', l.shipmentNumber], ['ORDER', l.soNumber ?? '-'], ['REF', l.reference ?? '-'],
  ];
  facts.forEach(([k, v], i) => {
    const x = 30 + (i % 3) * 250;
    const fy = y + Math.floor(i / 3) * 70;
    lines.push(`^FO${x},${fy}^A0N,20,20${fd(k)}`, `^FO${x},${fy + 24}^A0N,30,30${fd(v)}`);
  });
  y += 150;
  lines.push(`^FO30,${y}^GB752,4,4^FS`);
  y += 20;
  lines.push(`^FO30,${y}^A0N,22,22${fd('TRACKING #')}`);
  y += 30;
  lines.push(`^FO60,${y}^BY3,3,220^BCN,220,N,N,N${fd(l.trackingNumber)}`);
  y += 240;
  lines.push(`^FO30,${y}^A0N,40,40^FB752,1,0,C${fd(l.trackingNumber)}`);
  lines.push('^XZ');
  return lines.join('\n');
}

/** One GS1-128 SSCC carton label in ZPL: Code 128 mode D would guess; start C + FNC1 (>;>8) is explicit. */
export function ssccLabelZpl(l: LabelData): string {
  const lines: string[] = ['^XA', '^CI28', '^PW812', '^LL1218', '^LH0,0'];
  lines.push(`^FO30,30^A0N,20,20${fd('FROM')}`, `^FO30,54^A0N,26,26${fd(l.shipFrom.name)}`);
  lines.push(`^FO420,30^A0N,20,20${fd('TO')}`, `^FO420,54^A0N,26,26${fd(l.shipTo.name)}`);
  l.shipTo.lines.forEach((line, i) => lines.push(`^FO420,${86 + i * 30}^A0N,24,24${fd(line)}`));
  lines.push('^FO30,240^GB752,3,3^FS');
  const postal = l.shipTo.postalCode.replace(/\s/g, '').toUpperCase();
  let y = 270;
  if (postal) {
    const start = /^\d*$/.test(postal) && postal.length % 2 === 1 ? '>;' : '>:';
    lines.push(`^FO60,${y}^BY3,3,160^BCN,160,N,N,N^FD${start}>8420${zplText(postal)}^FS`, `^FO30,${y + 170}^A0N,28,28^FB752,1,0,C${fd(`(420) ${postal}`)}`);
    y += 230;
  }
  if (l.reference) {
    lines.push(`^FO60,${y}^BY2,3,160^BCN,160,N,N,N^FD>:>8400${zplText(l.reference)}^FS`, `^FO30,${y + 170}^A0N,28,28^FB752,1,0,C${fd(`(400) ${l.reference}`)}`);
    y += 230;
  }
  if (l.sscc) {
    lines.push(`^FO60,${Math.max(y, 900)}^BY3,3,200^BCN,200,N,N,N^FD>;>800${l.sscc}^FS`, `^FO30,${Math.max(y, 900) + 215}^A0N,34,34^FB752,1,0,C${fd(ssccHumanReadable(l.sscc))}`);
  }
  lines.push('^XZ');
  return lines.join('\n');
}
