import type { LABEL_SIZES, SYMBOLOGIES } from '@bolx/contracts';
import { CodeSvg } from './CodeSvg';

type LabelSize = (typeof LABEL_SIZES)[number];
type Symbology = (typeof SYMBOLOGIES)[number];

/** Width / height of one label of each stock (an A4 sheet holds 3 × 10 labels of about 2.75 × 1.1 in). */
const ASPECT: Record<LabelSize, number> = { '4x6': 4 / 6, '4x2': 2, '2x1': 2, 'A4-sheet': 2.7 };

/** A sketch of one label as it will print: warehouse, code, and the chosen barcodes. */
export function LabelPreview({ size, symbology, code, warehouse }: { size: LabelSize; symbology: Symbology; code: string; warehouse: string }) {
  const tall = ASPECT[size] < 1;
  return (
    <div className={`bolx-label bolx-label--${tall ? 'tall' : 'wide'}`} style={{ aspectRatio: String(ASPECT[size]) }} data-testid="label-preview">
      <div className="bolx-label__warehouse">{warehouse}</div>
      <div className="bolx-label__code">{code}</div>
      <div className={`bolx-label__codes bolx-label__codes--${symbology}`}>
        {symbology !== 'code128' && <CodeSvg text={code} symbology="qr" className="bolx-label__qr" />}
        {symbology !== 'qr' && <CodeSvg text={code} symbology="code128" className="bolx-label__linear" />}
      </div>
    </div>
  );
}
