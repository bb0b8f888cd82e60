import { CHARGE_GROUPS, formatMinor, type ChargeSource, type InvoiceDetail, type InvoiceLine } from '@bolx/contracts';
import { toXlsxBook } from '../../platform/excel.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, PAGE, SectionedPdf, cell } from '../../platform/pdf/pdf-document.js';

export interface Party { name: string; lines: string[] }

/** A line's quantity as printed: cubic centimetre-days as cubic metre-days, minutes as hours. */
export function shownQuantity(l: Pick<InvoiceLine, 'quantity' | 'unit'>): string {
  if (l.unit === 'cm³-days') return `${(l.quantity / 1_000_000).toFixed(3)} m³-days`;
  if (l.unit === 'minutes') return `${(l.quantity / 60).toFixed(2)} hours`;
  return `${l.quantity} ${l.unit}`;
}
const shownRate = (l: InvoiceLine, currency: string) => (l.rateMinor === null ? (l.markupBp ? `cost + ${l.markupBp / 100}%` : '') : `${formatMinor(l.rateMinor)} ${currency}${l.markupBp ? ` + ${l.markupBp / 100}%` : ''}`);

/**
 * The invoice (or credit note) as a PDF: the 3PL's details (the warehouse that bills), the client's, number,
 * period and status, the lines grouped by charge type's group with quantities, rates and amounts, then subtotal,
 * tax where set, and total.
 */
export async function invoicePdf(inv: InvoiceDetail, from: Party, to: Party): Promise<Buffer> {
  const title = inv.kind === 'credit_note' ? 'Credit note' : 'Invoice';
  const pdf = new SectionedPdf(`${title} ${inv.invoiceNumber ?? 'draft'}`);
  const doc = pdf.doc;
  pdf.beginSection();
  const X = PAGE.margin;
  let y = PAGE.margin;
  doc.font('Helvetica-Bold').fontSize(18).fillColor('black').text(title.toUpperCase(), X, y, { lineBreak: false });
  doc.fontSize(11);
  cell(doc, inv.invoiceNumber ?? `DRAFT (not final)`, X + CONTENT_WIDTH / 2, y + 4, CONTENT_WIDTH / 2, { align: 'right' });
  y += 30;
  const party = (p: Party, label: string, x: number) => {
    let yy = y;
    doc.font('Helvetica').fontSize(8).fillColor('#555555').text(label, x, yy, { lineBreak: false });
    yy += 11;
    doc.font('Helvetica-Bold').fontSize(10).fillColor('black');
    cell(doc, p.name, x, yy, CONTENT_WIDTH / 2 - 10);
    yy += 13;
    doc.font('Helvetica').fontSize(9);
    for (const l of p.lines) { cell(doc, l, x, yy, CONTENT_WIDTH / 2 - 10); yy += 11; }
    return yy;
  };
  y = Math.max(party(from, 'FROM', X), party(to, 'BILL TO', X + CONTENT_WIDTH / 2)) + 10;
  doc.font('Helvetica').fontSize(9).fillColor('black');
  const facts = [
    `Period: ${inv.periodFrom} to ${inv.periodTo} (${inv.periodKind})`, `Currency: ${inv.currency}`, `Status: ${inv.status}`,
    ...(inv.finalizedAt ? [`Issued: ${inv.finalizedAt.slice(0, 10)}`] : []),
    ...(inv.creditsInvoiceNumber ? [`Credits invoice ${inv.creditsInvoiceNumber}: ${inv.reason ?? ''}`] : []),
  ];
  for (const f of facts) { cell(doc, f, X, y, CONTENT_WIDTH); y += 12; }
  y += 8;
  const cols = { desc: X, qty: X + 250, rate: X + 345, amount: X + 430 };
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(9);
    cell(doc, 'Description', cols.desc, y, 245); cell(doc, 'Quantity', cols.qty, y, 90, { align: 'right' });
    cell(doc, 'Rate', cols.rate, y, 80, { align: 'right' }); cell(doc, 'Amount', cols.amount, y, CONTENT_WIDTH - 430, { align: 'right' });
    y += 13;
    doc.moveTo(X, y - 2).lineTo(X + CONTENT_WIDTH, y - 2).lineWidth(0.5).stroke();
  };
  const room = (h: number) => { if (y + h > CONTENT_BOTTOM) { pdf.addPage(); y = PAGE.margin; header(); } };
  header();
  for (const group of CHARGE_GROUPS) {
    const lines = inv.lines.filter((l) => l.group === group);
    if (lines.length === 0) continue;
    room(28);
    doc.font('Helvetica-Bold').fontSize(9);
    cell(doc, group, cols.desc, y + 2, 245);
    y += 14;
    doc.font('Helvetica').fontSize(9);
    for (const l of lines) {
      room(12);
      cell(doc, l.manual ? `${l.description} (${l.reason ?? ''})` : l.description, cols.desc + 8, y, 237);
      cell(doc, shownQuantity(l), cols.qty, y, 90, { align: 'right' });
      cell(doc, shownRate(l, inv.currency), cols.rate, y, 80, { align: 'right' });
      cell(doc, formatMinor(l.amountMinor), cols.amount, y, CONTENT_WIDTH - 430, { align: 'right' });
      y += 12;
    }
    const sum = lines.reduce((t, l) => t + l.amountMinor, 0);
    doc.font('Helvetica-Oblique');
    cell(doc, `${group} total`, cols.rate - 60, y, 140, { align: 'right' });
    cell(doc, formatMinor(sum), cols.amount, y, CONTENT_WIDTH - 430, { align: 'right' });
    y += 14;
  }
  room(50);
  y += 6;
  doc.moveTo(cols.rate, y - 3).lineTo(X + CONTENT_WIDTH, y - 3).lineWidth(0.5).stroke();
  const total = (label: string, minor: number, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 9);
    cell(doc, label, cols.rate - 60, y, 140, { align: 'right' });
    cell(doc, formatMinor(minor, inv.currency), cols.amount - 20, y, CONTENT_WIDTH - 410, { align: 'right' });
    y += bold ? 16 : 12;
  };
  total('Subtotal', inv.subtotalMinor);
  if (inv.taxRateBp) total(`Tax ${inv.taxRateBp / 100}%`, inv.taxMinor);
  total('Total', inv.totalMinor, true);
  pdf.endSection(`${title} ${inv.invoiceNumber ?? 'draft'} · ${to.name}`);
  return pdf.finish();
}

/** The invoice as a workbook: a summary sheet (its lines and totals) and a sheet of every line's sources. */
export async function invoiceWorkbook(inv: InvoiceDetail, sources: { line: InvoiceLine; charge: ChargeSource }[]): Promise<Buffer> {
  type Row = { label: string; quantity: string; rate: string; amount: number | null; note: string };
  const rows: Row[] = [
    { label: `${inv.kind === 'credit_note' ? 'Credit note' : 'Invoice'} ${inv.invoiceNumber ?? 'DRAFT'}`, quantity: '', rate: '', amount: null, note: `${inv.customerName} · ${inv.warehouseName}` },
    { label: `Period ${inv.periodFrom} to ${inv.periodTo}`, quantity: '', rate: '', amount: null, note: `Currency ${inv.currency} · ${inv.status}` },
    ...inv.lines.map((l) => ({ label: `${l.group}: ${l.description}`, quantity: shownQuantity(l), rate: shownRate(l, inv.currency), amount: l.amountMinor / 100, note: l.manual ? `Manual: ${l.reason ?? ''}` : `${l.sourceCount} sources` })),
    { label: 'Subtotal', quantity: '', rate: '', amount: inv.subtotalMinor / 100, note: '' },
    { label: `Tax ${inv.taxRateBp / 100}%`, quantity: '', rate: '', amount: inv.taxMinor / 100, note: '' },
    { label: 'Total', quantity: '', rate: '', amount: inv.totalMinor / 100, note: inv.currency },
  ];
  return toXlsxBook([
    {
      name: 'Summary', rows, columns: [
        { header: 'Item', value: (r: Row) => r.label, width: 60 }, { header: 'Quantity', value: (r: Row) => r.quantity, width: 20 },
        { header: 'Rate', value: (r: Row) => r.rate, width: 20 }, { header: 'Amount', value: (r: Row) => r.amount, width: 14 }, { header: 'Note', value: (r: Row) => r.note, width: 40 },
      ],
    },
    {
      name: 'Sources', rows: sources, columns: [
        { header: 'Line', value: (s: { line: InvoiceLine }) => s.line.lineId }, { header: 'Charge type', value: (s: { line: InvoiceLine }) => s.line.chargeType, width: 24 },
        { header: 'Qualifier', value: (s: { line: InvoiceLine }) => s.line.qualifier },
        { header: 'Charge', value: (s: { charge: ChargeSource }) => s.charge.chargeId }, { header: 'Day', value: (s: { charge: ChargeSource }) => s.charge.day },
        { header: 'Source type', value: (s: { charge: ChargeSource }) => s.charge.sourceType }, { header: 'Source id', value: (s: { charge: ChargeSource }) => s.charge.sourceId },
        { header: 'Document', value: (s: { charge: ChargeSource }) => s.charge.sourceDoc, width: 24 }, { header: 'Quantity', value: (s: { charge: ChargeSource }) => s.charge.quantity },
        { header: 'Rate (minor)', value: (s: { charge: ChargeSource }) => s.charge.rateMinor }, { header: 'Markup bp', value: (s: { charge: ChargeSource }) => s.charge.markupBp },
        { header: 'Divisor', value: (s: { charge: ChargeSource }) => s.charge.divisor }, { header: 'Amount (minor)', value: (s: { charge: ChargeSource }) => s.charge.amountMinor },
        { header: 'Credits charge', value: (s: { charge: ChargeSource }) => s.charge.reversesChargeId }, { header: 'Description', value: (s: { charge: ChargeSource }) => s.charge.description, width: 30 },
      ],
    },
  ]);
}
