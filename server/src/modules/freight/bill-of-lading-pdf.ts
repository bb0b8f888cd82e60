import { gs1Text, type Gs1Element } from '../../platform/gs1.js';
import { Code128Cache, drawCode128, gs1128, type Code128 } from '../../platform/pdf/code128.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, PAGE, SectionedPdf, cell } from '../../platform/pdf/pdf-document.js';

export interface BolParty { name: string; lines: string[]; locationNumber?: string | null }

/** What one VICS bill of lading shows, already worded and in the units printed (weights in lb and kg). */
export interface BillOfLadingData {
  bolNumber: string;
  shipNumber: string;
  date: string;
  customerName: string;
  shipFrom: BolParty;
  shipTo: BolParty;
  billTo: BolParty | null;
  carrierName: string;
  scac: string;
  proNumber: string | null;
  trailerNumber: string | null;
  sealNumber: string | null;
  chargeTerms: 'Prepaid' | 'Collect' | 'Third Party';
  codAmount: string | null;
  declaredValue: string | null;
  declaredValuePer: string | null;
  specialInstructions: string | null;
  pickup: string | null;
  orders: { orderNumber: string; pieces: number; weightLb: number; palletSlip: boolean; info: string }[];
  units: {
    handlingQty: number; handlingType: string; pieces: number; packageType: string; weightLb: number; hazmat: boolean; description: string;
    nmfcItem: string | null; freightClass: string;
  }[];
  totalWeightKg: number;
  /** A GS1-128 pallet label per pallet with an SSCC, after the bill of lading. */
  pallets: { sscc: string; index: number; count: number; orderNumber: string | null; pieces: number; weightKg: number; shipToPostal: string | null; description: string }[];
}

const X0 = PAGE.margin;
const W = CONTENT_WIDTH;
const HALF = W / 2;
const ROW = 13;
const BAR = 34;

/**
 * The straight bill of lading, VICS style (Voluntary Inter-industry Commerce Solutions, 2005 layout): BOL number
 * with its barcode, ship from / ship to / third-party bill-to on the left, carrier, trailer, seal, SCAC and PRO
 * number with its barcode (the SCAC padded to four with dashes, then the PRO) on the right, special instructions and
 * charge terms, the customer order and carrier information tables, COD and declared value, the liability note and
 * the signature blocks. Then one GS1-128 logistic label per pallet with its SSCC.
 */
export async function billOfLadingPdf(bol: BillOfLadingData): Promise<Buffer> {
  const pdf = new SectionedPdf(`Bill of lading ${bol.bolNumber}`);
  const barcodes = new Code128Cache();
  pdf.beginSection();
  renderBol(pdf, barcodes, bol);
  pdf.endSection(`Bill of lading ${bol.bolNumber} · ${bol.shipNumber}`);
  for (const pallet of bol.pallets) {
    pdf.beginSection();
    palletLabel(pdf, bol, pallet);
    pdf.endSection(`Pallet label ${pallet.sscc}`);
  }
  return pdf.finish();
}

/** The PRO number's barcode value: SCAC dash-padded to four characters, then the PRO number. */
export const proBarcodeValue = (scac: string, pro: string) => `${scac.padEnd(4, '-')}${pro}`;

const lb = (n: number) => `${Math.round(n).toLocaleString('en-US')}`;

function renderBol(pdf: SectionedPdf, barcodes: Code128Cache, bol: BillOfLadingData): void {
  const { doc } = pdf;
  let y: number = PAGE.margin;
  doc.font('Helvetica-Bold').fontSize(14).fillColor('black');
  doc.text('STRAIGHT BILL OF LADING – SHORT FORM', X0, y, { lineBreak: false });
  doc.font('Helvetica').fontSize(9).text(`Date: ${bol.date}`, X0, y + 18, { lineBreak: false });
  doc.text(`Shipment: ${bol.shipNumber} · ${bol.customerName}`, X0, y + 30, { lineBreak: false });
  // BOL number (12 pt bold, VICS) and its barcode at the top right.
  doc.font('Helvetica-Bold').fontSize(12);
  cell(doc, `Bill of Lading Number: ${bol.bolNumber}`, X0 + HALF, y, HALF, { align: 'right' });
  barcode(doc, barcodes, bol.bolNumber, X0 + HALF, y + 16, HALF);
  y += 16 + BAR + 8;

  // Left: the parties. Right: the carrier.
  const left = X0;
  const right = X0 + HALF + 6;
  const colW = HALF - 6;
  const top = y;
  let ly = box(doc, 'SHIP FROM', left, y, colW, [bol.shipFrom.name, ...bol.shipFrom.lines, `SID#: ${bol.shipNumber}`]);
  ly = box(doc, 'SHIP TO', left, ly + 4, colW, [bol.shipTo.name, ...bol.shipTo.lines, `Location #: ${bol.shipTo.locationNumber ?? ''}`], true);
  ly = box(doc, 'THIRD PARTY FREIGHT CHARGES BILL TO', left, ly + 4, colW, bol.billTo ? [bol.billTo.name, ...bol.billTo.lines] : ['—']);

  let ry = box(doc, 'CARRIER', right, top, colW, [
    `Carrier name: ${bol.carrierName}`, `Trailer number: ${bol.trailerNumber ?? ''}`, `Seal number(s): ${bol.sealNumber ?? ''}`,
  ]);
  doc.font('Helvetica-Bold').fontSize(12);
  cell(doc, `SCAC: ${bol.scac}`, right + 4, ry + 4, colW - 8);
  cell(doc, `Pro number: ${bol.proNumber ?? ''}`, right + 4, ry + 20, colW - 8);
  ry += 36;
  if (bol.proNumber) {
    barcode(doc, barcodes, proBarcodeValue(bol.scac, bol.proNumber), right, ry, colW);
    ry += BAR + 12;
  }
  const terms = (t: BillOfLadingData['chargeTerms']) => `${bol.chargeTerms === t ? '[X]' : '[  ]'} ${t}`;
  ry = box(doc, 'FREIGHT CHARGE TERMS (freight charges are prepaid unless marked otherwise)', right, ry + 2, colW,
    [`${terms('Prepaid')}    ${terms('Collect')}    ${terms('Third Party')}`]);
  ry = box(doc, 'SPECIAL INSTRUCTIONS', right, ry + 4, colW, [
    ...(bol.pickup ? [`Pickup appointment: ${bol.pickup}`] : []),
    ...(bol.specialInstructions ? wrap(doc, bol.specialInstructions, colW - 8, 4) : []),
    ...(!bol.pickup && !bol.specialInstructions ? ['—'] : []),
  ]);
  y = Math.max(ly, ry) + 10;

  // Customer order information.
  const orderCols = [
    { label: 'CUSTOMER ORDER NUMBER', w: 150 }, { label: '# PKGS', w: 50, right: true }, { label: 'WEIGHT (LB)', w: 70, right: true },
    { label: 'PALLET/SLIP (Y/N)', w: 80 }, { label: 'ADDITIONAL SHIPPER INFO', w: W - 350 },
  ];
  y = table(pdf, 'CUSTOMER ORDER INFORMATION', orderCols, bol.orders.map((o) => [o.orderNumber, String(o.pieces), lb(o.weightLb), o.palletSlip ? 'Y' : 'N', o.info]),
    ['GRAND TOTAL', String(bol.orders.reduce((s, o) => s + o.pieces, 0)), lb(bol.orders.reduce((s, o) => s + o.weightLb, 0)), '', ''], y);

  // Carrier information.
  const unitCols = [
    { label: 'HU QTY', w: 38, right: true }, { label: 'HU TYPE', w: 48 }, { label: 'PKG QTY', w: 42, right: true }, { label: 'PKG TYPE', w: 48 },
    { label: 'WEIGHT (LB)', w: 58, right: true }, { label: 'H.M. (X)', w: 36 }, { label: 'COMMODITY DESCRIPTION', w: W - 38 - 48 - 42 - 48 - 58 - 36 - 64 - 38 },
    { label: 'NMFC #', w: 64 }, { label: 'CLASS', w: 38 },
  ];
  y = table(pdf, 'CARRIER INFORMATION', unitCols, bol.units.map((u) => [
    String(u.handlingQty), u.handlingType, String(u.pieces), u.packageType, lb(u.weightLb), u.hazmat ? 'X' : '', u.description, u.nmfcItem ?? '', u.freightClass,
  ]), [String(bol.units.reduce((s, u) => s + u.handlingQty, 0)), '', String(bol.units.reduce((s, u) => s + u.pieces, 0)), '',
    lb(bol.units.reduce((s, u) => s + u.weightLb, 0)), '', `GRAND TOTAL (${bol.totalWeightKg.toFixed(1)} kg)`, '', ''], y);

  // COD, declared value, liability note and the signatures need about 200 pt: a new page when they do not fit.
  if (y + 200 > CONTENT_BOTTOM) {
    pdf.addPage();
    y = PAGE.margin;
  }
  y += 8;
  doc.font('Helvetica-Bold').fontSize(9);
  doc.text(`Declared value: ${bol.declaredValue ? `${bol.declaredValue} per ${bol.declaredValuePer ?? 'shipment'}` : '—'}`, X0, y, { lineBreak: false });
  doc.text(`COD Amount: ${bol.codAmount ?? '—'}`, X0 + HALF + 6, y, { lineBreak: false });
  doc.font('Helvetica').fontSize(8);
  y = paragraph(doc, 'Where the rate is dependent on value, shippers are required to state specifically in writing the agreed or declared value of the property; the agreed or declared value of the property is specifically stated by the shipper to be not exceeding the value above.', X0, y + 14, W);
  y = paragraph(doc, 'NOTE: Liability limitation for loss or damage in this shipment may be applicable. See 49 U.S.C. § 14706(c)(1)(A) and (B).', X0, y + 4, W);
  y = paragraph(doc, 'RECEIVED, subject to individually determined rates or contracts agreed in writing between the carrier and shipper, the property described above in apparent good order, except as noted.', X0, y + 2, W);

  // Signature blocks.
  y += 8;
  const third = W / 3;
  const sig = (x: number, title: string, lines: string[]) => {
    doc.rect(x, y, third - 6, 84).lineWidth(0.6).stroke();
    doc.font('Helvetica-Bold').fontSize(8).text(title, x + 4, y + 4, { lineBreak: false });
    doc.font('Helvetica').fontSize(8);
    lines.forEach((l, i) => doc.text(l, x + 4, y + 18 + i * 12, { lineBreak: false }));
  };
  sig(X0, 'SHIPPER SIGNATURE / DATE', ['', '', '______________________________', 'Shipper', 'Date: ____________']);
  sig(X0 + third, 'TRAILER LOADED / FREIGHT COUNTED', ['[  ] By shipper     [  ] By driver', '[  ] By shipper', '[  ] By driver/pallets said to contain', '[  ] By driver/pieces']);
  sig(X0 + 2 * third, 'CARRIER SIGNATURE / PICKUP DATE', ['', '', '______________________________', 'Carrier', 'Pickup date: ____________']);
}

function barcode(doc: PDFKit.PDFDocument, barcodes: Code128Cache, value: string, x: number, y: number, width: number): void {
  const module = barcodes.moduleFor(value, width);
  const symbol = barcodes.get(value);
  if (!symbol || !module) {
    doc.font('Helvetica').fontSize(9).text(value, x, y + 10, { lineBreak: false });
    return;
  }
  const w = barcodes.widthAt(value, module);
  drawCode128(doc, symbol, x + width - w, y, module, BAR);
}

/** A titled box of text lines; answers the y below it. */
function box(doc: PDFKit.PDFDocument, title: string, x: number, y: number, w: number, lines: string[], bold = false): number {
  const h = 16 + lines.length * 11 + 4;
  doc.rect(x, y, w, h).lineWidth(0.6).stroke();
  doc.rect(x, y, w, 13).fill('#222222');
  doc.fillColor('white').font('Helvetica-Bold').fontSize(7.5);
  cell(doc, title, x + 4, y + 3, w - 8);
  doc.fillColor('black').font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
  lines.forEach((l, i) => cell(doc, l, x + 4, y + 16 + i * 11, w - 8));
  doc.font('Helvetica');
  return y + h;
}

function wrap(doc: PDFKit.PDFDocument, text: string, width: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (doc.widthOfString(next) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines.slice(0, maxLines);
}

function paragraph(doc: PDFKit.PDFDocument, text: string, x: number, y: number, w: number): number {
  const lines = wrap(doc, text, w, 6);
  lines.forEach((l, i) => doc.text(l, x, y + i * 10, { lineBreak: false }));
  return y + lines.length * 10;
}

/** A bordered table with a title bar, header row, rows (continued on new pages) and a total row; answers the y below it. */
function table(pdf: SectionedPdf, title: string, cols: { label: string; w: number; right?: boolean }[], rows: string[][], total: string[], y: number): number {
  const { doc } = pdf;
  const head = () => {
    doc.rect(X0, y, W, 13).fill('#222222');
    doc.fillColor('white').font('Helvetica-Bold').fontSize(8).text(title, X0 + 4, y + 3, { lineBreak: false });
    y += 13;
    doc.fillColor('black').font('Helvetica-Bold').fontSize(6.5);
    let x = X0;
    for (const c of cols) {
      cell(doc, c.label, x + 2, y + 3, c.w - 4, { align: c.right ? 'right' : 'left' });
      x += c.w;
    }
    doc.moveTo(X0, y + 12).lineTo(X0 + W, y + 12).lineWidth(0.6).stroke();
    y += 13;
  };
  const row = (values: string[], bold = false) => {
    if (y + ROW > CONTENT_BOTTOM) {
      pdf.addPage();
      y = PAGE.margin;
      head();
    }
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8).fillColor('black');
    let x = X0;
    cols.forEach((c, i) => {
      cell(doc, values[i] ?? '', x + 2, y + 3, c.w - 4, { align: c.right ? 'right' : 'left' });
      x += c.w;
    });
    doc.moveTo(X0, y + ROW).lineTo(X0 + W, y + ROW).lineWidth(0.3).strokeColor('#999999').stroke().strokeColor('black');
    y += ROW;
  };
  head();
  for (const r of rows) row(r);
  row(total, true);
  return y + 6;
}

/**
 * A GS1 logistic label (GS1 Logistic Label Guideline): the free-form block (from, to, carrier), the human-readable
 * block, then the barcodes with the SSCC (00) last and lowest; (420) carries the ship-to postal code when it has one.
 */
function palletLabel(pdf: SectionedPdf, bol: BillOfLadingData, pallet: BillOfLadingData['pallets'][number]): void {
  const { doc } = pdf;
  let y: number = PAGE.margin;
  const left = X0;
  const colW = HALF - 6;
  box(doc, 'FROM', left, y, colW, [bol.shipFrom.name, ...bol.shipFrom.lines]);
  y = box(doc, 'TO', left + HALF + 6, y, colW, [bol.shipTo.name, ...bol.shipTo.lines], true) + 10;
  doc.font('Helvetica-Bold').fontSize(12).fillColor('black');
  doc.text(`Carrier: ${bol.carrierName} (${bol.scac})`, X0, y, { lineBreak: false });
  doc.text(`PRO: ${bol.proNumber ?? '—'}    BOL: ${bol.bolNumber}`, X0, y + 18, { lineBreak: false });
  doc.text(`Pallet ${pallet.index} of ${pallet.count}${pallet.orderNumber ? `    Order: ${pallet.orderNumber}` : ''}`, X0, y + 36, { lineBreak: false });
  doc.font('Helvetica').fontSize(11).text(`${pallet.pieces} pieces · ${pallet.weightKg.toFixed(1)} kg · ${pallet.description}`, X0, y + 56, { lineBreak: false });
  y += 84;
  doc.font('Helvetica-Bold').fontSize(14).text(`SSCC ${pallet.sscc}`, X0, y, { lineBreak: false });
  y += 28;
  const symbols: [Gs1Element[], Code128 | null][] = [];
  if (pallet.shipToPostal) {
    const elements: Gs1Element[] = [['420', pallet.shipToPostal]];
    symbols.push([elements, gs1128(gs1Text(elements))]);
  }
  const sscc: Gs1Element[] = [['00', pallet.sscc]];
  symbols.push([sscc, gs1128(gs1Text(sscc))]);
  for (const [elements, symbol] of symbols) {
    if (!symbol) continue;
    const module = Math.min(1.6, W / (symbol.modules + 20));
    drawCode128(doc, symbol, X0, y, module, 90);
    doc.font('Helvetica').fontSize(11).text(gs1Text(elements), X0 + 10 * module, y + 96, { lineBreak: false });
    y += 130;
  }
}
