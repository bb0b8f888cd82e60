import bwipjs from 'bwip-js';

/**
 * QR codes drawn as vector squares in a PDF, not as an embedded PNG: a PNG is resampled to its box by the printer or
 * the PDF reader, and at some sizes the blurred module edges made scanners miss codes (a sheet of 100 location labels
 * read at 300 dpi lost one in ten). Squares stay exact at any resolution.
 */

/** Four modules of white on every side: scanners need it to find the symbol. */
export const QR_QUIET_MODULES = 4;

export interface QrSymbol {
  /** Modules per side. */
  size: number;
  /** Row by row, 1 for a dark module (bwip-js's `pixs`). */
  dark: ArrayLike<number>;
}

/** The value as a QR code at BWIPP's default medium error correction (survives a scuffed label). */
export function qrSymbol(value: string): QrSymbol {
  const [symbol] = bwipjs.raw('qrcode', value, '');
  if (!('pixs' in symbol)) throw new Error('bwip-js answered no QR matrix');
  return { size: symbol.pixx, dark: symbol.pixs };
}

/**
 * Draws the symbol and its quiet zone as the square `side` wide at (x, y); nothing is drawn in the quiet zone (the
 * caller keeps it clear). Each row's runs of dark modules are one rectangle, all of them one filled path, so
 * neighbouring modules leave no seam.
 */
export function drawQr(doc: PDFKit.PDFDocument, symbol: QrSymbol, x: number, y: number, side: number): void {
  const module = side / (symbol.size + 2 * QR_QUIET_MODULES);
  const left = x + QR_QUIET_MODULES * module;
  const top = y + QR_QUIET_MODULES * module;
  for (let row = 0; row < symbol.size; row++) {
    let col = 0;
    while (col < symbol.size) {
      if (!symbol.dark[row * symbol.size + col]) { col++; continue; }
      const start = col;
      while (col < symbol.size && symbol.dark[row * symbol.size + col]) col++;
      doc.rect(left + start * module, top + row * module, (col - start) * module, module);
    }
  }
  doc.fillColor('black').fill();
}
