import { describe, expect, it } from 'vitest';
import { refusalOf } from './answers';

const t = (id: string) => `<${id}>`;

describe('refusalOf', () => {
  it('says the server\'s refusal, and asks for the same scan again when no answer came', () => {
    expect(refusalOf({ status: 422, data: { message: 'Scan location A-01', details: { locationCode: 'Scan location A-01' } } }, t)).toBe('Scan location A-01');
    expect(refusalOf({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, t)).toBe('<handheld.noAnswer>');
    expect(refusalOf({ status: 'TIMEOUT_ERROR', error: 'timeout' }, t)).toBe('<handheld.noAnswer>');
  });
});
