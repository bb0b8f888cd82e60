import { useT } from '../lib/i18n/use-t';

/** The BOLX logo: a square mark with the word beside it. */
export function BrandMark({ size = 32, showWord = true, light = false }: { size?: number; showWord?: boolean; light?: boolean }) {
  const t = useT();
  return (
    <span className={`bolx-brand${light ? ' bolx-brand--light' : ''}`} style={{ fontSize: size * 0.62 }}>
      <span className="bolx-brand__mark" style={{ width: size, height: size, fontSize: size * 0.56 }} aria-hidden>
        B
      </span>
      {showWord && <span className="bolx-brand__word">{t('app.logo')}</span>}
    </span>
  );
}
