import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import { MESSAGES } from '../lib/i18n/catalog';
// Every screen area's texts join the catalogue when its chunk loads; load them all here.
import '../features/customers/messages';
import '../features/handheld/messages';
import '../features/inbound/messages';
import '../features/inventory/messages';
import '../features/locations/messages';
import '../features/skus/messages';
import '../features/users/messages';
import '../features/warehouses/messages';
import '../app/layout/header/add-data/messages';

/** Nouns a count is followed by somewhere in the catalogue. */
const PLURAL_NOUNS = 'units|lines|rows|locations|items|days|seconds|minutes|digits|labels|codes|differences|tasks|errors|files|skus|characters';
/** Arguments that are never counts (a list of file kinds), given text rather than a number. */
const TEXT_ARGUMENTS = new Set(['kinds']);
const argumentsOf = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\s*[,}]/g)].map((m) => m[1]))];

describe('counts in the message catalogue', () => {
  const intl = createIntl({ locale: 'en-US', messages: MESSAGES, onError: () => undefined });
  const format = (id: string, n: number) => intl.formatMessage({ id }, Object.fromEntries(argumentsOf(MESSAGES[id]).map((a) => [a, TEXT_ARGUMENTS.has(a) ? 'Excel' : n])));

  it('never writes "(s)": a count picks its noun through an ICU plural', () => {
    expect(Object.entries(MESSAGES).filter(([, text]) => text.includes('(s)'))).toEqual([]);
  });

  it('writes one of anything in the singular and two in the plural, in every message', () => {
    const one = new RegExp(`(^|[^\\d.,])1 (${PLURAL_NOUNS})\\b`, 'i');
    const two = new RegExp(`(^|[^\\d.,])2 (${PLURAL_NOUNS.replace(/s(?=\||$)/g, '')})\\b`, 'i');
    const wrong = Object.keys(MESSAGES).flatMap((id) => [format(id, 1), format(id, 2)].filter((text) => one.test(text) || two.test(text)).map((text) => `${id}: ${text}`));
    expect(wrong).toEqual([]);
  });

  it('reads the examples from the issue correctly', () => {
    expect(intl.formatMessage({ id: 'inventory.count.recountHint' }, { count: 1 })).toBe('1 line differs from the expected quantity: count it again');
    expect(intl.formatMessage({ id: 'inventory.count.recountHint' }, { count: 3 })).toBe('3 lines differ from the expected quantity: count them again');
    expect(intl.formatMessage({ id: 'inventory.replenishment.confirmComplete' }, { quantity: 1, to: 'P-01' })).toBe('Move 1 unit to P-01 and complete the task?');
    expect(intl.formatMessage({ id: 'validation.atMostAvailable' }, { available: 1 })).toBe('Only 1 unit is available');
    expect(intl.formatMessage({ id: 'validation.atMostAvailable' }, { available: 10 })).toBe('Only 10 units are available');
    expect(intl.formatMessage({ id: 'table.total' }, { from: 1, to: 1, total: 1 })).toBe('1-1 of 1 item');
    expect(intl.formatMessage({ id: 'selection.warehouse.locations' }, { used: 1234, total: 1395 })).toBe('1,234 of 1,395 locations used');
  });
});
