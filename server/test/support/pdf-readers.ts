import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';

/**
 * Reading printed output as people and scanners do: pdftotext for the words, pdftoppm + zbarimg for the barcodes.
 * Without the tools outside CI the decode tests are skipped (`withTools`); CI must have them.
 */
export const decoders = existsSync('/usr/bin/zbarimg') && existsSync('/usr/bin/pdftoppm') && existsSync('/usr/bin/pdftotext');
if (!decoders && process.env.CI) throw new Error('CI needs zbarimg (zbar-tools) and pdftoppm/pdftotext (poppler-utils) to read printed PDFs');
export const withTools = decoders ? describe : describe.skip;

const dirs: string[] = [];
afterAll(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

function tempFile(bytes: Buffer, name: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bolx-pdf-'));
  dirs.push(dir);
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return { dir, file };
}

/** The PDF's text as pdftotext reads it (layout kept, so a row's cells stay on one line). */
export function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', tempFile(pdf, 'doc.pdf').file, '-'], { encoding: 'utf8' });
}

export function pdfPageCount(pdf: Buffer): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [tempFile(pdf, 'doc.pdf').file], { encoding: 'utf8' }))![1]);
}

/**
 * Every barcode of one symbology zbarimg finds on the PDF's first `pages` pages rendered at 200 dpi, in page order.
 * GS1-128 is read as code128: zbarimg prints its element string with FNC1 as GS (\x1d) between variable-length AIs
 * and a leading "]C1" symbology identifier only when asked; `gs1Elements` splits it.
 */
export function pdfBarcodes(pdf: Buffer, pages = 1, symbology: 'code128' | 'qrcode' = 'code128'): string[] {
  const { dir, file } = tempFile(pdf, 'doc.pdf');
  execFileSync('pdftoppm', ['-r', '200', '-f', '1', '-l', String(pages), '-png', file, join(dir, 'page')]);
  const files = readdirSync(dir).filter((f) => f.endsWith('.png')).sort().map((f) => join(dir, f));
  let out = '';
  try {
    out = execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', `-S${symbology}.enable`, ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? ''); // exit 4: nothing found in some image
  }
  return out.split('\n').filter(Boolean);
}
