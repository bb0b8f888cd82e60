import { CONTENT_BOTTOM, CONTENT_WIDTH, PAGE, SectionedPdf, cell } from '../../platform/pdf/pdf-document.js';

export interface ManifestData {
  manifestNumber: string;
  businessDay: string;
  warehouseName: string;
  customerName: string;
  accountName: string;
  closedAt: string;
  closedBy: string | null;
  currency: string;
  rows: { shipmentNumber: string; soNumber: string | null; reference: string | null; serviceName: string | null; shipToName: string | null; shipToZip: string | null; trackingNumber: string; weightKg: number; chargeMinor: number | null }[];
  totals: { shipments: number; packages: number; weightKg: number; chargeMinor: number };
}

export const money = (minor: number | null, currency: string) => (minor === null ? '' : `${(minor / 100).toFixed(2)} ${currency}`);
export const weight = (kg: number) => (Math.round(kg * 100) / 100).toFixed(2);

const X0 = PAGE.margin;
const COLS = [
  { label: 'Shipment', x: 0, w: 70, align: 'left' },
  { label: 'Order', x: 72, w: 62, align: 'left' },
  { label: 'Reference', x: 136, w: 70, align: 'left' },
  { label: 'Service', x: 208, w: 60, align: 'left' },
  { label: 'Ship to', x: 270, w: 70, align: 'left' },
  { label: 'Tracking', x: 342, w: 95, align: 'left' },
  { label: 'kg', x: 439, w: 30, align: 'right' },
  { label: 'Charge', x: 471, w: CONTENT_WIDTH - 471, align: 'right' },
] as const;
const ROW = 13;

/** The end-of-day manifest as a PDF: one row per package (tracking number), then the totals the carrier signs for. */
export async function manifestPdf(m: ManifestData): Promise<Buffer> {
  const pdf = new SectionedPdf(`Manifest ${m.manifestNumber}`);
  const { doc } = pdf;
  pdf.beginSection();
  doc.font('Helvetica-Bold').fontSize(16).fillColor('black').text(`Manifest ${m.manifestNumber}`, X0, PAGE.margin, { lineBreak: false });
  doc.font('Helvetica').fontSize(9);
  const facts = [`Carrier account: ${m.accountName}`, `Client: ${m.customerName}`, `Warehouse: ${m.warehouseName}`, `Day: ${m.businessDay}`, `Closed: ${m.closedAt}${m.closedBy ? ` by ${m.closedBy}` : ''}`];
  facts.forEach((f, i) => cell(doc, f, X0 + (i % 2) * (CONTENT_WIDTH / 2), PAGE.margin + 24 + Math.floor(i / 2) * 12, CONTENT_WIDTH / 2 - 6));
  let y = header(doc, PAGE.margin + 66);
  for (const r of m.rows) {
    if (y + ROW > CONTENT_BOTTOM - 40) {
      pdf.addPage();
      y = header(doc, PAGE.margin);
    }
    doc.font('Helvetica').fontSize(8).fillColor('black');
    const values = [r.shipmentNumber, r.soNumber ?? '', r.reference ?? '', r.serviceName ?? '', `${r.shipToName ?? ''} ${r.shipToZip ?? ''}`.trim(), r.trackingNumber, weight(r.weightKg), money(r.chargeMinor, m.currency)];
    COLS.forEach((c, i) => cell(doc, values[i], X0 + c.x, y, c.w, { align: c.align }));
    y += ROW;
  }
  doc.moveTo(X0, y).lineTo(X0 + CONTENT_WIDTH, y).lineWidth(0.5).strokeColor('#999999').stroke();
  doc.font('Helvetica-Bold').fontSize(9);
  cell(doc, `Totals: ${m.totals.shipments} shipments, ${m.totals.packages} packages`, X0, y + 4, 330);
  cell(doc, weight(m.totals.weightKg), X0 + COLS[6].x - 20, y + 4, COLS[6].w + 20, { align: 'right' });
  cell(doc, money(m.totals.chargeMinor, m.currency), X0 + COLS[7].x, y + 4, COLS[7].w, { align: 'right' });
  doc.font('Helvetica').fontSize(9).text('Driver signature: ______________________    Pickup time: __________', X0, y + 30, { lineBreak: false });
  pdf.endSection(`Manifest ${m.manifestNumber} · ${m.accountName}`);
  return pdf.finish();
}

function header(doc: PDFKit.PDFDocument, y: number): number {
  doc.rect(X0, y, CONTENT_WIDTH, 14).fill('#e8e8e8');
  doc.font('Helvetica-Bold').fontSize(8).fillColor('black');
  for (const c of COLS) doc.text(c.label, X0 + c.x, y + 4, { width: c.w, align: c.align, lineBreak: false });
  return y + 17;
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The manifest as CSV: a row per package, then the totals row. */
export function manifestCsv(m: ManifestData): string {
  const head = ['Manifest', 'Day', 'Carrier account', 'Shipment', 'Order', 'Reference', 'Service', 'Ship to', 'Postal code', 'Tracking number', 'Weight kg', `Charge ${m.currency}`];
  const rows = m.rows.map((r) => [m.manifestNumber, m.businessDay, m.accountName, r.shipmentNumber, r.soNumber, r.reference, r.serviceName, r.shipToName, r.shipToZip, r.trackingNumber, weight(r.weightKg), r.chargeMinor === null ? '' : (r.chargeMinor / 100).toFixed(2)]);
  rows.push([m.manifestNumber, m.businessDay, m.accountName, 'TOTAL', `${m.totals.shipments} shipments`, '', '', '', '', `${m.totals.packages} packages`, weight(m.totals.weightKg), (m.totals.chargeMinor / 100).toFixed(2)]);
  return [head, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
