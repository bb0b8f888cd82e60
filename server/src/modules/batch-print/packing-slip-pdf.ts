import { Code128Cache, drawCode128 } from '../../platform/pdf/code128.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, PAGE, SectionedPdf, cell } from '../../platform/pdf/pdf-document.js';

export interface Address {
  name: string;
  /** Street, city line and country, already joined; empty lines left out. */
  lines: string[];
  phone?: string | null;
}

/** What one packing slip shows. */
export interface PackingSlipData {
  soNumber: string;
  referenceNumber: string;
  orderDate: string;
  /** The day it shipped, or the requested ship date while it has not. */
  shipDate: string | null;
  shipDateLabel: string;
  status: string;
  customerName: string;
  /** The customer's logo (PNG or JPEG bytes), when the customer has one; null prints the name alone. */
  customerLogo: Buffer | null;
  shipFrom: Address;
  shipTo: Address;
  carrier: string | null;
  carrierService: string | null;
  lines: { lineNo: number; skuCode: string; description: string; lot: string; ordered: number; picked: number; packed: number; shipped: number }[];
  cartons: { cartonNumber: string; cartonType: string; dimensions: string; weightKg: number | null; trackingNumber: string | null; contents: { skuCode: string; lot: string; quantity: number }[] }[];
}

const X0 = PAGE.margin;
const BAR_HEIGHT = 36;
const LOGO = { w: 120, h: 48 };
const COLS = [
  { label: '#', x: 0, w: 22, align: 'left' },
  { label: 'SKU', x: 24, w: 110, align: 'left' },
  { label: 'Description', x: 136, w: 150, align: 'left' },
  { label: 'Lot', x: 288, w: 70, align: 'left' },
  { label: 'Ordered', x: 360, w: 38, align: 'right' },
  { label: 'Picked', x: 400, w: 38, align: 'right' },
  { label: 'Packed', x: 440, w: 38, align: 'right' },
  { label: 'Shipped', x: 480, w: CONTENT_WIDTH - 480, align: 'right' },
] as const;
const ROW = 13;

/** Packing slips as one PDF: one slip per order, each starting on a new page with its own page numbers. */
export async function packingSlipsPdf(slips: PackingSlipData[]): Promise<Buffer> {
  const pdf = new SectionedPdf(slips.length === 1 ? `Packing slip ${slips[0].soNumber}` : `Packing slips (${slips.length})`);
  const barcodes = new Code128Cache();
  for (const slip of slips) {
    pdf.beginSection();
    renderSlip(pdf, barcodes, slip);
    pdf.endSection(`Packing slip ${slip.soNumber} · ${slip.customerName}`);
  }
  return pdf.finish();
}

function renderSlip(pdf: SectionedPdf, barcodes: Code128Cache, slip: PackingSlipData): void {
  const { doc } = pdf;
  let y = header(doc, barcodes, slip);
  y = addresses(doc, slip, y + 10);
  y = facts(doc, slip, y + 8);
  y = linesTable(pdf, slip, y + 10);
  if (slip.cartons.length) cartons(pdf, slip, y + 12);
}

function header(doc: PDFKit.PDFDocument, barcodes: Code128Cache, slip: PackingSlipData): number {
  const top = PAGE.margin;
  let nameY = top;
  if (slip.customerLogo) {
    try {
      doc.image(slip.customerLogo, X0, top, { fit: [LOGO.w, LOGO.h] });
      nameY = top + LOGO.h + 4;
    } catch {
      // A logo pdfkit cannot read (not PNG or JPEG) is left out rather than failing the whole print.
    }
  }
  doc.font('Helvetica-Bold').fontSize(16).fillColor('black');
  cell(doc, slip.customerName, X0, nameY, CONTENT_WIDTH / 2);
  doc.fontSize(12).text('Packing Slip', X0, nameY + 20, { lineBreak: false });

  // The order barcode at the top right: the pack station and the dock open the order with one scan.
  const symbol = barcodes.get(slip.soNumber);
  const right = X0 + CONTENT_WIDTH;
  if (symbol) drawCode128(doc, symbol, right - barcodes.widthAt(slip.soNumber), top, 1, BAR_HEIGHT);
  doc.font('Helvetica-Bold').fontSize(12);
  doc.text(slip.soNumber, right - 200, top + BAR_HEIGHT + 4, { width: 200, align: 'right', lineBreak: false });
  return Math.max(nameY + 38, top + BAR_HEIGHT + 20);
}

function addresses(doc: PDFKit.PDFDocument, slip: PackingSlipData, top: number): number {
  const w = CONTENT_WIDTH / 2 - 8;
  const block = (title: string, a: Address, x: number) => {
    doc.font('Helvetica').fontSize(7).fillColor('#555555').text(title, x, top, { lineBreak: false });
    doc.font('Helvetica-Bold').fontSize(10).fillColor('black');
    cell(doc, a.name, x, top + 10, w);
    doc.font('Helvetica').fontSize(9);
    let y = top + 24;
    for (const line of [...a.lines, ...(a.phone ? [`Phone: ${a.phone}`] : [])]) {
      cell(doc, line, x, y, w);
      y += 11;
    }
    return y;
  };
  const a = block('SHIP FROM', slip.shipFrom, X0);
  const b = block('SHIP TO', slip.shipTo, X0 + CONTENT_WIDTH / 2 + 8);
  return Math.max(a, b);
}

function facts(doc: PDFKit.PDFDocument, slip: PackingSlipData, top: number): number {
  const items: [string, string][] = [
    ['Reference', slip.referenceNumber],
    ['Order date', slip.orderDate],
    [slip.shipDateLabel, slip.shipDate ?? '—'],
    ['Carrier', slip.carrier ?? '—'],
    ['Service', slip.carrierService ?? '—'],
    ['Status', slip.status],
  ];
  const colW = CONTENT_WIDTH / 3;
  items.forEach(([label, value], i) => {
    const x = X0 + (i % 3) * colW;
    const y = top + Math.floor(i / 3) * 24;
    doc.font('Helvetica').fontSize(7).fillColor('#555555').text(label.toUpperCase(), x, y, { lineBreak: false });
    doc.font('Helvetica-Bold').fontSize(10).fillColor('black');
    cell(doc, value, x, y + 9, colW - 6);
  });
  return top + 48;
}

function tableHeader(doc: PDFKit.PDFDocument, y: number): number {
  doc.rect(X0, y, CONTENT_WIDTH, 14).fill('#e8e8e8');
  doc.font('Helvetica-Bold').fontSize(8).fillColor('black');
  for (const c of COLS) doc.text(c.label, X0 + c.x, y + 4, { width: c.w, align: c.align, lineBreak: false });
  return y + 17;
}

function continued(pdf: SectionedPdf, slip: PackingSlipData): number {
  pdf.addPage();
  pdf.doc.font('Helvetica-Bold').fontSize(11).fillColor('black').text(`Packing slip ${slip.soNumber} (continued)`, X0, PAGE.margin, { lineBreak: false });
  return PAGE.margin + 20;
}

function linesTable(pdf: SectionedPdf, slip: PackingSlipData, top: number): number {
  const { doc } = pdf;
  let y = tableHeader(doc, top);
  for (const line of slip.lines) {
    if (y + ROW > CONTENT_BOTTOM) y = tableHeader(doc, continued(pdf, slip));
    doc.font('Helvetica').fontSize(9).fillColor('black');
    const values = [String(line.lineNo), line.skuCode, line.description, line.lot, String(line.ordered), String(line.picked), String(line.packed), String(line.shipped)];
    COLS.forEach((c, i) => cell(doc, values[i], X0 + c.x, y, c.w, { align: c.align }));
    y += ROW;
  }
  const total = (k: 'ordered' | 'picked' | 'packed' | 'shipped') => String(slip.lines.reduce((s, l) => s + l[k], 0));
  doc.moveTo(X0, y).lineTo(X0 + CONTENT_WIDTH, y).lineWidth(0.5).strokeColor('#999999').stroke();
  doc.font('Helvetica-Bold').fontSize(9);
  cell(doc, 'Total', X0 + COLS[2].x, y + 3, COLS[2].w);
  (['ordered', 'picked', 'packed', 'shipped'] as const).forEach((k, i) => cell(doc, total(k), X0 + COLS[4 + i].x, y + 3, COLS[4 + i].w, { align: 'right' }));
  return y + 3 + ROW;
}

function cartons(pdf: SectionedPdf, slip: PackingSlipData, top: number): void {
  const { doc } = pdf;
  let y = top;
  if (y + 30 > CONTENT_BOTTOM) y = continued(pdf, slip);
  doc.font('Helvetica-Bold').fontSize(10).fillColor('black').text(`Cartons (${slip.cartons.length})`, X0, y, { lineBreak: false });
  y += 15;
  for (const c of slip.cartons) {
    if (y + 2 * ROW > CONTENT_BOTTOM) y = continued(pdf, slip);
    const weight = c.weightKg === null ? '' : ` · ${c.weightKg} kg`;
    const tracking = c.trackingNumber ? ` · tracking ${c.trackingNumber}` : '';
    doc.font('Helvetica-Bold').fontSize(9);
    cell(doc, `${c.cartonNumber} · ${c.cartonType} · ${c.dimensions}${weight}${tracking}`, X0, y, CONTENT_WIDTH);
    y += ROW;
    doc.font('Helvetica').fontSize(9);
    for (const item of c.contents) {
      if (y + ROW > CONTENT_BOTTOM) y = continued(pdf, slip);
      cell(doc, item.skuCode, X0 + 24, y, 200);
      cell(doc, item.lot ? `Lot ${item.lot}` : '', X0 + 230, y, 150);
      cell(doc, String(item.quantity), X0 + 400, y, CONTENT_WIDTH - 400, { align: 'right' });
      y += ROW;
    }
    y += 4;
  }
}
