import { Code128Cache, drawCode128, QUIET_MODULES } from '../../platform/pdf/code128.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, PAGE, SectionedPdf, cell } from '../../platform/pdf/pdf-document.js';

/** What one pick list shows: the job's header, its totes, and its stops in pick-path order. */
export interface PickListData {
  jobNumber: string;
  waveNumber: string;
  strategy: string;
  zone: string | null;
  status: string;
  pickerName: string | null;
  warehouseName: string;
  createdDate: string;
  printedAt: string;
  totes: { slot: number; soNumber: string; customerName: string; toteCode: string | null }[];
  stops: PickListStop[];
}

export interface PickListStop {
  seq: number;
  locationCode: string;
  skuCode: string;
  skuDescription: string;
  lot: string;
  expiryDate: string | null;
  quantity: number;
  tasks: { slot: number; soNumber: string; toteCode: string | null; quantity: number }[];
}

const X0 = PAGE.margin;
/** The stop table's columns (x offsets from the margin, widths). */
const COL = {
  seq: { x: 0, w: 26 },
  location: { x: 28, w: 150 },
  sku: { x: 180, w: 200 },
  lot: { x: 382, w: 96 },
  qty: { x: 480, w: CONTENT_WIDTH - 480 },
} as const;
const ROW_TEXT = 13;
const BAR_HEIGHT = 24;
const CAPTION = 9;
const TASK_LINE = 11;
const TASKS_PER_LINE = 3;
const HEADER_BAR_HEIGHT = 34;
/** The two barcodes of a stop share the row beside the sequence column: location left, SKU right. */
const BARCODE_AREA = { x: COL.location.x, w: CONTENT_WIDTH - COL.location.x };

/**
 * Pick lists as one PDF, one section per job (its own "Page n of m"): the job number as Code 128, wave, strategy,
 * picker, dates, totes by slot; then each stop in pick-path order with its location and SKU as Code 128 and the
 * units per tote. The stop table's header repeats on every page.
 */
export async function pickListsPdf(jobs: PickListData[]): Promise<Buffer> {
  const pdf = new SectionedPdf(jobs.length === 1 ? `Pick list ${jobs[0].jobNumber}` : `Pick lists (${jobs.length})`);
  const barcodes = new Code128Cache();
  for (const job of jobs) {
    pdf.beginSection();
    renderJob(pdf, barcodes, job);
    pdf.endSection(`Pick list ${job.jobNumber} · ${job.warehouseName}`);
  }
  return pdf.finish();
}

function renderJob(pdf: SectionedPdf, barcodes: Code128Cache, job: PickListData): void {
  const { doc } = pdf;
  let y = jobHeader(doc, barcodes, job);
  y = totesTable(pdf, job, y);
  y = stopHeader(doc, y + 6);
  if (job.stops.length === 0) {
    doc.font('Helvetica-Oblique').fontSize(9).text('This job has no stops.', X0, y + 4, { lineBreak: false });
    return;
  }
  for (const stop of job.stops) {
    const layout = stopLayout(barcodes, stop);
    if (y + layout.height > CONTENT_BOTTOM) {
      pdf.addPage();
      y = continuedHeader(doc, job);
      y = stopHeader(doc, y);
    }
    y = renderStop(doc, barcodes, stop, layout, y);
  }
}

function jobHeader(doc: PDFKit.PDFDocument, barcodes: Code128Cache, job: PickListData): number {
  const top = PAGE.margin;
  doc.font('Helvetica-Bold').fontSize(18).fillColor('black').text('Pick List', X0, top, { lineBreak: false });
  doc.fontSize(14).text(job.jobNumber, X0, top + 24, { lineBreak: false });
  // The job barcode at the top right, for the handheld to open the job with one scan.
  const symbol = barcodes.get(job.jobNumber);
  const barWidth = barcodes.widthAt(job.jobNumber);
  if (symbol) drawCode128(doc, symbol, X0 + CONTENT_WIDTH - barWidth, top, 1, HEADER_BAR_HEIGHT);

  const facts: [string, string][] = [
    ['Wave', job.waveNumber],
    ['Strategy', job.zone ? `${job.strategy} (zone ${job.zone})` : job.strategy],
    ['Picker', job.pickerName ?? 'Unassigned'],
    ['Status', job.status],
    ['Warehouse', job.warehouseName],
    ['Created', job.createdDate],
    ['Printed', job.printedAt],
    ['Stops', `${job.stops.length} (${job.stops.reduce((s, st) => s + st.quantity, 0)} units)`],
  ];
  const y0 = top + 48;
  const colW = CONTENT_WIDTH / 4;
  facts.forEach(([label, value], i) => {
    const x = X0 + (i % 4) * colW;
    const y = y0 + Math.floor(i / 4) * 24;
    doc.font('Helvetica').fontSize(7).fillColor('#555555').text(label.toUpperCase(), x, y, { lineBreak: false });
    doc.font('Helvetica-Bold').fontSize(10).fillColor('black');
    cell(doc, value, x, y + 9, colW - 6);
  });
  return y0 + 2 * 24 + 4;
}

function totesTable(pdf: SectionedPdf, job: PickListData, top: number): number {
  const { doc } = pdf;
  let y = top;
  doc.font('Helvetica-Bold').fontSize(10).text('Totes', X0, y, { lineBreak: false });
  y += 14;
  const cols = [{ label: 'Slot', x: 0, w: 40 }, { label: 'Order', x: 42, w: 110 }, { label: 'Client', x: 154, w: 220 }, { label: 'Tote', x: 376, w: CONTENT_WIDTH - 376 }];
  doc.font('Helvetica-Bold').fontSize(8).fillColor('#555555');
  for (const c of cols) doc.text(c.label, X0 + c.x, y, { lineBreak: false });
  doc.fillColor('black');
  y += 11;
  doc.font('Helvetica').fontSize(9);
  for (const tote of job.totes) {
    if (y + 12 > CONTENT_BOTTOM) {
      pdf.addPage();
      y = continuedHeader(doc, job);
      doc.font('Helvetica').fontSize(9);
    }
    cell(doc, String(tote.slot), X0 + cols[0].x, y, cols[0].w);
    cell(doc, tote.soNumber, X0 + cols[1].x, y, cols[1].w);
    cell(doc, tote.customerName, X0 + cols[2].x, y, cols[2].w);
    // No tote yet: a line to write the tote's code on.
    cell(doc, tote.toteCode ?? '____________', X0 + cols[3].x, y, cols[3].w);
    y += 12;
  }
  return y;
}

function continuedHeader(doc: PDFKit.PDFDocument, job: PickListData): number {
  doc.font('Helvetica-Bold').fontSize(11).fillColor('black').text(`Pick list ${job.jobNumber} (continued)`, X0, PAGE.margin, { lineBreak: false });
  doc.font('Helvetica').fontSize(8).text(`Wave ${job.waveNumber} · ${job.pickerName ?? 'Unassigned'}`, X0, PAGE.margin + 14, { lineBreak: false });
  return PAGE.margin + 28;
}

function stopHeader(doc: PDFKit.PDFDocument, y: number): number {
  doc.rect(X0, y, CONTENT_WIDTH, 14).fill('#e8e8e8');
  doc.font('Helvetica-Bold').fontSize(8).fillColor('black');
  doc.text('#', X0 + COL.seq.x + 2, y + 4, { lineBreak: false });
  doc.text('Location', X0 + COL.location.x, y + 4, { lineBreak: false });
  doc.text('SKU / Description', X0 + COL.sku.x, y + 4, { lineBreak: false });
  doc.text('Lot / Expiry', X0 + COL.lot.x, y + 4, { lineBreak: false });
  doc.text('Qty', X0 + COL.qty.x, y + 4, { width: COL.qty.w, align: 'right', lineBreak: false });
  return y + 17;
}

/** Where a stop's barcodes go: side by side when both fit half the row, else one row each; null: text only. */
interface StopLayout {
  rows: { label: string; code: string; module: number; x: number }[][];
  taskLines: number;
  height: number;
}

function stopLayout(barcodes: Code128Cache, stop: PickListStop): StopLayout {
  const half = BARCODE_AREA.w / 2;
  const codes = [{ label: 'LOCATION', code: stop.locationCode }, { label: 'SKU', code: stop.skuCode }];
  const halfModules = codes.map((c) => barcodes.moduleFor(c.code, half));
  let rows: StopLayout['rows'];
  if (halfModules[0] !== null && halfModules[1] !== null) {
    rows = [[{ ...codes[0], module: halfModules[0], x: BARCODE_AREA.x }, { ...codes[1], module: halfModules[1], x: BARCODE_AREA.x + half }]];
  } else {
    // A code too long for half the row takes a row of its own; one too long for that is printed as text only.
    rows = codes.flatMap((c) => {
      const module = barcodes.moduleFor(c.code, BARCODE_AREA.w);
      return module === null ? [] : [[{ ...c, module, x: BARCODE_AREA.x }]];
    });
  }
  const taskLines = Math.ceil(stop.tasks.length / TASKS_PER_LINE);
  const height = 2 * ROW_TEXT + rows.length * (CAPTION + BAR_HEIGHT + 4) + taskLines * TASK_LINE + 8;
  return { rows, taskLines, height };
}

function renderStop(doc: PDFKit.PDFDocument, barcodes: Code128Cache, stop: PickListStop, layout: StopLayout, top: number): number {
  let y = top;
  doc.font('Helvetica-Bold').fontSize(10).fillColor('black');
  cell(doc, String(stop.seq), X0 + COL.seq.x + 2, y, COL.seq.w - 2);
  cell(doc, stop.locationCode, X0 + COL.location.x, y, COL.location.w);
  cell(doc, stop.skuCode, X0 + COL.sku.x, y, COL.sku.w);
  doc.fontSize(12);
  cell(doc, String(stop.quantity), X0 + COL.qty.x, y - 1, COL.qty.w, { align: 'right' });
  doc.font('Helvetica').fontSize(9);
  cell(doc, stop.lot ? `Lot ${stop.lot}` : 'Any lot', X0 + COL.lot.x, y, COL.lot.w);
  y += ROW_TEXT;
  doc.fontSize(8).fillColor('#333333');
  cell(doc, stop.skuDescription, X0 + COL.sku.x, y, COL.sku.w);
  if (stop.expiryDate) cell(doc, `Exp ${stop.expiryDate}`, X0 + COL.lot.x, y, COL.lot.w);
  y += ROW_TEXT;

  for (const row of layout.rows) {
    for (const b of row) {
      // The caption sits above the bars, clear of the quiet zones on either side.
      doc.font('Helvetica').fontSize(6).fillColor('#555555');
      doc.text(b.label, X0 + b.x + QUIET_MODULES * b.module, y, { lineBreak: false });
      drawCode128(doc, barcodes.get(b.code)!, X0 + b.x, y + CAPTION, b.module, BAR_HEIGHT);
    }
    y += CAPTION + BAR_HEIGHT + 4;
  }

  doc.font('Helvetica').fontSize(8).fillColor('black');
  const taskW = BARCODE_AREA.w / TASKS_PER_LINE;
  stop.tasks.forEach((task, i) => {
    const x = X0 + BARCODE_AREA.x + (i % TASKS_PER_LINE) * taskW;
    const line = y + Math.floor(i / TASKS_PER_LINE) * TASK_LINE;
    const tote = task.toteCode ? ` · ${task.toteCode}` : '';
    cell(doc, `Slot ${task.slot} · ${task.soNumber}${tote}: ${task.quantity}`, x, line, taskW - 6);
  });
  y += layout.taskLines * TASK_LINE + 3;
  doc.moveTo(X0, y).lineTo(X0 + CONTENT_WIDTH, y).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
  return y + 5;
}
