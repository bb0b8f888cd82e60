import { randomUUID } from 'node:crypto';
import type { z } from 'zod';

/**
 * Reads the contracts' zod request schemas (zod 4 definitions) to make requests from them: a plausible value for a
 * whole schema, the leaves (numbers, strings, booleans, arrays, enums) with their paths, and a value placed at one.
 */

type Check = { _zod: { def: { check: string; format?: string; minimum?: number; maximum?: number; value?: number; inclusive?: boolean; pattern?: RegExp } } };
type Def = {
  type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType; out?: z.ZodType;
  options?: z.ZodType[]; checks?: Check[]; entries?: Record<string, string | number>; values?: unknown[]; format?: string;
  pattern?: RegExp; items?: z.ZodType[]; left?: z.ZodType; right?: z.ZodType;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'lazy']);
const unwrap = (s: z.ZodType): z.ZodType => {
  const def = defOf(s);
  if (def.type === 'lazy') return unwrap((s as unknown as { _zod: { def: { getter: () => z.ZodType } } })._zod.def.getter());
  return WRAPPERS.has(def.type) ? unwrap(def.innerType!) : def.type === 'pipe' ? unwrap(defOf(def.in!).type === 'transform' ? def.out! : def.in!) : s;
};

export type LeafKind = 'int' | 'number' | 'string' | 'boolean' | 'enum' | 'array' | 'date';
export interface Leaf { path: (string | number)[]; kind: LeafKind; optional: boolean }

const checksOf = (def: Def) => (def.checks ?? []).map((c) => c._zod.def);
const isInt = (def: Def) => checksOf(def).some((c) => c.format === 'safeint' || c.format === 'int32' || c.format === 'uint32');

/** Every leaf an input schema takes, with its path (arrays through their first element, unions through each option). */
export function leavesOf(schema: z.ZodType, path: (string | number)[] = [], out: Leaf[] = [], optional = false): Leaf[] {
  const def = defOf(schema);
  if (def.type === 'object') for (const [key, child] of Object.entries(def.shape!)) leavesOf(child, [...path, key], out, false);
  else if (def.type === 'lazy') leavesOf(unwrap(schema), path, out, optional);
  else if (WRAPPERS.has(def.type)) leavesOf(def.innerType!, path, out, optional || def.type !== 'nonoptional');
  else if (def.type === 'array') {
    out.push({ path, kind: 'array', optional });
    leavesOf(def.element!, [...path, 0], out, false);
  } else if (def.type === 'pipe') leavesOf(defOf(def.in!).type === 'transform' ? def.out! : def.in!, path, out, optional);
  else if (def.type === 'union') for (const option of def.options!) leavesOf(option, path, out, optional);
  else if (def.type === 'number') out.push({ path, kind: isInt(def) ? 'int' : 'number', optional });
  else if (def.type === 'string') out.push({ path, kind: 'string', optional });
  else if (def.type === 'boolean') out.push({ path, kind: 'boolean', optional });
  else if (def.type === 'enum' || def.type === 'literal') out.push({ path, kind: 'enum', optional });
  else if (def.type === 'date') out.push({ path, kind: 'date', optional });
  return out;
}

const STRING_CANDIDATES = ['A1', 'a', '1', 'ABC-1', '2030-03-01', '2030-03-01T10:00:00.000Z', '10:00', 'a@example.com', 'US', 'USD', 'EA', 'kg', '00000000000000000018'];

/** A string the schema takes, when one of a few plain candidates (or its format's example) does. */
function sampleString(def: Def, hint: string): string {
  const checks = checksOf(def);
  const format = def.format ?? checks.find((c) => c.check === 'string_format')?.format;
  if (format === 'email') return 'fuzz@example.com';
  if (format === 'uuid' || format === 'guid') return randomUUID();
  if (format === 'date') return '2030-03-01';
  if (format === 'datetime') return '2030-03-01T10:00:00.000Z';
  if (format === 'time') return '10:00:00';
  if (format === 'url') return 'https://example.com/x';
  const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
  const max = checks.find((c) => c.check === 'max_length')?.maximum ?? 200;
  const patterns = [def.pattern, ...checks.map((c) => c.pattern)].filter((p): p is RegExp => !!p);
  const fits = (s: string) => s.length >= min && s.length <= max && patterns.every((p) => new RegExp(p.source, p.flags.replace('g', '')).test(s));
  const named = `${hint}-1`.replace(/[^\w-]/g, '').slice(0, Math.max(1, max));
  return [named, ...STRING_CANDIDATES].find(fits) ?? 'x'.repeat(Math.max(1, Math.min(min, max)));
}

function sampleNumber(def: Def, int: boolean): number {
  const checks = checksOf(def);
  const low = checks.find((c) => c.check === 'greater_than');
  const high = checks.find((c) => c.check === 'less_than');
  let v = 1;
  if (low?.value !== undefined && v < low.value + (low.inclusive ? 0 : 1)) v = low.value + (low.inclusive ? 0 : 1);
  if (high?.value !== undefined && v > high.value - (high.inclusive ? 0 : 1)) v = high.value - (high.inclusive ? 0 : 1);
  return int ? Math.ceil(v) : v;
}

/**
 * A value the schema takes, as far as these rules find one: optional fields included, arrays of one element,
 * unions by their first option. `idFor` answers a value for an integer field by its name (ids of real records).
 */
export function sampleOf(schema: z.ZodType, idFor: (field: string) => number | undefined = () => undefined, field = 'value'): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': return Object.fromEntries(Object.entries(def.shape!).map(([k, v]) => [k, sampleOf(v, idFor, k)]));
    case 'optional': case 'nullable': case 'readonly': case 'catch': case 'nonoptional': case 'prefault': return sampleOf(def.innerType!, idFor, field);
    case 'default': return sampleOf(def.innerType!, idFor, field);
    case 'lazy': return sampleOf(unwrap(schema), idFor, field);
    case 'pipe': return sampleOf(defOf(def.in!).type === 'transform' ? def.out! : def.in!, idFor, field);
    case 'array': return [sampleOf(def.element!, idFor, field)];
    case 'tuple': return (def.items ?? []).map((s) => sampleOf(s, idFor, field));
    case 'union': return sampleOf(def.options![0], idFor, field);
    case 'intersection': return { ...(sampleOf(def.left!, idFor, field) as object), ...(sampleOf(def.right!, idFor, field) as object) };
    case 'record': return {};
    case 'number': return idFor(field) ?? sampleNumber(def, isInt(def));
    case 'bigint': return 1;
    case 'string': return sampleString(def, field);
    case 'boolean': return false;
    case 'enum': return Object.values(def.entries!)[0];
    case 'literal': return def.values![0];
    case 'date': return '2030-03-01';
    case 'null': return null;
    default: return undefined;
  }
}

/** `base` with the value at `path` replaced (or removed, for `undefined`); arrays reached through their first element. */
export function withValueAt(base: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(base) ? [...base] : [];
    list[head] = withValueAt(list[head], rest, value);
    return list;
  }
  const obj = base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  if (rest.length === 0 && value === undefined) delete obj[head];
  else obj[head] = withValueAt(obj[head], rest, value);
  return obj;
}
