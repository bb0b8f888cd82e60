/** How the SKU screens show measures: "30 × 20 × 10 cm", "1.25 kg", a dash when not captured. */
const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, '').replace(/\.$/, ''));

export function formatDimensions(m: { lengthCm: number | null; widthCm: number | null; heightCm: number | null }, unit = true): string {
  if (m.lengthCm == null && m.widthCm == null && m.heightCm == null) return '—';
  const part = (n: number | null) => (n == null ? '?' : num(n));
  return `${part(m.lengthCm)} × ${part(m.widthCm)} × ${part(m.heightCm)}${unit ? ' cm' : ''}`;
}

export const formatWeight = (kg: number | null): string => (kg == null ? '—' : `${num(kg)} kg`);
