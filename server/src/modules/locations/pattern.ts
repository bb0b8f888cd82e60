import type { LocationPatternInput, PatternRange } from '@bolx/contracts';

/** One location a pattern describes: its code and the segments it is made of. */
export interface PatternLocation {
  code: string;
  zone: string | null;
  aisle: string;
  rack: string;
  level: string;
  bin: string | null;
}

type PatternShape = Pick<LocationPatternInput, 'zone' | 'aisles' | 'racks' | 'levels' | 'bins' | 'separator' | 'padding'>;

function rangeSize(r: PatternRange): number {
  if (typeof r.from === 'number' && typeof r.to === 'number') return r.to - r.from + 1;
  return String(r.to).charCodeAt(0) - String(r.from).charCodeAt(0) + 1;
}

/** The values of a range as the segments of a code: numbers zero-padded, letters as they are. */
function rangeValues(r: PatternRange, padding: number): string[] {
  const size = rangeSize(r);
  if (typeof r.from === 'number') {
    const start = r.from;
    return Array.from({ length: size }, (_, i) => String(start + i).padStart(padding, '0'));
  }
  const start = r.from.charCodeAt(0);
  return Array.from({ length: size }, (_, i) => String.fromCharCode(start + i));
}

/** How many locations a pattern makes, without making them (so an oversized pattern costs nothing). */
export function patternCount(p: PatternShape): number {
  return rangeSize(p.aisles) * rangeSize(p.racks) * rangeSize(p.levels) * (p.bins ? rangeSize(p.bins) : 1);
}

/**
 * Every combination zone-aisle-rack-level(-bin), in walking order: aisle, then rack, then level, then bin.
 * Call only after checking patternCount against the limit.
 */
export function expandPattern(p: PatternShape): PatternLocation[] {
  const aisles = rangeValues(p.aisles, p.padding);
  const racks = rangeValues(p.racks, p.padding);
  const levels = rangeValues(p.levels, p.padding);
  const bins: (string | null)[] = p.bins ? rangeValues(p.bins, p.padding) : [null];
  const zone = p.zone ?? null;
  const out: PatternLocation[] = [];
  for (const aisle of aisles) {
    for (const rack of racks) {
      for (const level of levels) {
        for (const bin of bins) {
          const code = [zone, aisle, rack, level, bin].filter((s): s is string => s !== null).join(p.separator);
          out.push({ code, zone, aisle, rack, level, bin });
        }
      }
    }
  }
  return out;
}
