import PDFDocument from 'pdfkit';

/** A4 portrait in points, and the margin every printed document keeps (printers cannot print to the edge). */
export const PAGE = { width: 595.28, height: 841.89, margin: 36 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
/** Where the last content line may end: the footer (page numbers) sits below it. */
export const CONTENT_BOTTOM = PAGE.height - PAGE.margin - 14;

/**
 * A PDF being written section by section (one pick list, one packing slip): pages are kept until their section
 * ends, numbered "Page n of m" within it, then flushed to the output, so memory holds one section at a time.
 */
export class SectionedPdf {
  readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly finished: Promise<void>;
  private sectionStart = 0;

  constructor(title: string) {
    // Margins 0: every position is set by the renderers, and pdfkit never breaks a page by itself.
    this.doc = new PDFDocument({ autoFirstPage: false, bufferPages: true, margin: 0, size: 'A4', info: { Title: title, Creator: 'BOLX-WMS' } });
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.finished = new Promise<void>((resolve, reject) => { this.doc.on('end', resolve); this.doc.on('error', reject); });
  }

  addPage(): void {
    this.doc.addPage({ size: 'A4', margin: 0 });
  }

  /** Starts a section: its first page. */
  beginSection(): void {
    const range = this.doc.bufferedPageRange();
    this.sectionStart = range.start + range.count;
    this.addPage();
  }

  /** Writes "Page n of m" (and the section's name) on each of the section's pages, then lets them go. */
  endSection(footer: string): void {
    const range = this.doc.bufferedPageRange();
    const total = range.start + range.count - this.sectionStart;
    for (let i = 0; i < total; i++) {
      this.doc.switchToPage(this.sectionStart + i);
      const y = PAGE.height - PAGE.margin - 8;
      this.doc.font('Helvetica').fontSize(8).fillColor('#444444');
      this.doc.text(footer, PAGE.margin, y, { width: CONTENT_WIDTH / 2, lineBreak: false });
      this.doc.text(`Page ${i + 1} of ${total}`, PAGE.margin + CONTENT_WIDTH / 2, y, { width: CONTENT_WIDTH / 2, align: 'right', lineBreak: false });
      this.doc.fillColor('black');
    }
    this.doc.flushPages();
  }

  async finish(): Promise<Buffer> {
    this.doc.end();
    await this.finished;
    return Buffer.concat(this.chunks);
  }
}

/**
 * One line of text in a box `width` wide, cut with an ellipsis when longer (a long description never wraps into
 * the next row). The text is placed by its measured width rather than through pdfkit's line wrapper, which is the
 * slow part of drawing thousands of cells.
 */
export function cell(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, opts: { align?: 'left' | 'right' | 'center' } = {}): void {
  const shown = fitted(doc, text, width);
  const align = opts.align ?? 'left';
  const offset = align === 'left' ? 0 : (width - doc.widthOfString(shown)) / (align === 'right' ? 1 : 2);
  doc.text(shown, x + offset, y, { lineBreak: false });
}

/** No Helvetica glyph is wider than its font size (W, the widest, is 0.94 em). */
const WIDEST_GLYPH_EM = 1;

export function fitted(doc: PDFKit.PDFDocument, text: string, width: number): string {
  // Most cells are short: a bound from the character count spares measuring them (measuring walks every kerning pair).
  const fontSize = (doc as unknown as { _fontSize: number })._fontSize;
  if (text.length * fontSize * WIDEST_GLYPH_EM <= width) return text;
  if (doc.widthOfString(text) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(`${text.slice(0, mid)}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}
