/**
 * The one plural-aware count format for messages the server returns ("1 unit", "5 units"): English plural
 * rules by Intl.PluralRules, so a count is never followed by the wrong noun form or a "(s)".
 */
const rules = new Intl.PluralRules('en-US');

/** `count(1, 'unit')` → "1 unit", `count(3, 'unit')` → "3 units"; irregular nouns pass their plural. */
export function count(n: number, one: string, other = `${one}s`): string {
  return `${n} ${rules.select(n) === 'one' ? one : other}`;
}

/** The noun alone, for a count written elsewhere in the sentence: `noun(2, 'row')` → "rows". */
export function noun(n: number, one: string, other = `${one}s`): string {
  return rules.select(n) === 'one' ? one : other;
}

/** A signed change for a message: "+3 units", "−1 unit" (hyphen-minus, as the API's other texts use). */
export function signedCount(n: number, one: string, other = `${one}s`): string {
  return `${n > 0 ? '+' : ''}${count(n, one, other)}`;
}
