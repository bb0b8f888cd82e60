import { reportAsOf, type ReportColumn, type ReportFormat, type ReportResult } from '@bolx/contracts';
import { safeCell, toXlsx } from '../../platform/excel.js';
import { cell, CONTENT_BOTTOM, CONTENT_WIDTH, PAGE, SectionedPdf } from '../../platform/pdf/pdf-document.js';

type Value = string | number | null;
/** A cell as a person reads it: money in major units (stored as minor), percentages with a sign. */
export function shown(c: ReportColumn, v: Value | undefined): string {
  if (v === null || v === undefined) return '';
  if (c.kind === 'money' && typeof v === 'number') return (v / 100).toFixed(2);
  if (c.kind === 'percent' && typeof v === 'number') return `${v}%`;
  return String(v);
}
const excelValue = (c: ReportColumn, v: Value | undefined) => (v === null || v === undefined ? null : c.kind === 'money' && typeof v === 'number' ? v / 100 : v);
const lines = (r: ReportResult) => [...r.rows, r.totals];

export function reportToXlsx(r: ReportResult): Promise<Buffer> {
  return toXlsx(r.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '), r.columns.map((c) => ({ header: c.title, value: (row: Record<string, Value>) => excelValue(c, row[c.key]), width: Math.max(12, c.title.length + 4) })), lines(r));
}

/** RFC 4180: every field quoted when it holds a quote, comma or line break; formula-like text defused as in Excel. */
export function reportToCsv(r: ReportResult): Buffer {
  const field = (v: string | number | boolean | null) => {
    const s = v === null ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const out = [r.columns.map((c) => field(safeCell(c.title))).join(',')];
  for (const row of lines(r)) out.push(r.columns.map((c) => field(safeCell(shown(c, row[c.key])))).join(','));
  return Buffer.from(`\uFEFF${out.join('\r\n')}\r\n`, 'utf8');
}

/** The table on A4 pages (landscape content squeezed into portrait columns), header row repeated on each page, totals last in bold. */
export async function reportToPdf(r: ReportResult): Promise<Buffer> {
  const pdf = new SectionedPdf(r.title);
  const doc = pdf.doc;
  const widths = r.columns.map((c) => (c.kind === 'text' ? 2 : 1));
  const unit = CONTENT_WIDTH / widths.reduce((s, w) => s + w, 0);
  const xs = widths.reduce<number[]>((acc, w, i) => [...acc, i === 0 ? PAGE.margin : acc[i - 1] + widths[i - 1] * unit], []);
  const rowHeight = 13;
  let y = 0;
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(7);
    r.columns.forEach((c, i) => cell(doc, c.title, xs[i], y, widths[i] * unit - 4, { align: c.kind === 'text' ? 'left' : 'right' }));
    y += rowHeight;
    doc.moveTo(PAGE.margin, y - 3).lineTo(PAGE.margin + CONTENT_WIDTH, y - 3).lineWidth(0.5).stroke();
  };
  pdf.beginSection();
  y = PAGE.margin;
  doc.font('Helvetica-Bold').fontSize(14).text(r.title, PAGE.margin, y, { lineBreak: false });
  y += 20;
  const asOf = reportAsOf(r.report);
  // A snapshot is of its day (stock now, or at the end of the range's last day), not of a range.
  const when = asOf === 'now' ? `As of ${r.toDate}` : asOf === 'end' ? `As of the end of ${r.toDate}` : `${r.fromDate} to ${r.toDate}`;
  doc.font('Helvetica').fontSize(9).text(`${when}${r.groupBy ? ` · by ${r.groupBy}` : ''}`, PAGE.margin, y, { lineBreak: false });
  y += 18;
  header();
  const all = lines(r);
  all.forEach((row, index) => {
    if (y + rowHeight > CONTENT_BOTTOM) { pdf.addPage(); y = PAGE.margin; header(); }
    doc.font(index === all.length - 1 ? 'Helvetica-Bold' : 'Helvetica').fontSize(7);
    r.columns.forEach((c, i) => cell(doc, shown(c, row[c.key]), xs[i], y, widths[i] * unit - 4, { align: c.kind === 'text' ? 'left' : 'right' }));
    y += rowHeight;
  });
  pdf.endSection(r.title);
  return pdf.finish();
}

/** A report as a file in one of its formats: its name (report and range), MIME type and bytes. */
export async function renderReport(result: ReportResult, format: ReportFormat): Promise<{ file: string; type: string; body: Buffer }> {
  const file = `${result.report}-${result.fromDate}-to-${result.toDate}`;
  if (format === 'csv') return { file: `${file}.csv`, type: 'text/csv; charset=utf-8', body: reportToCsv(result) };
  if (format === 'pdf') return { file: `${file}.pdf`, type: 'application/pdf', body: await reportToPdf(result) };
  return { file: `${file}.xlsx`, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body: await reportToXlsx(result) };
}
