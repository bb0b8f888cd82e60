import { describe, expect, it } from 'vitest';
import type { RuleObject } from 'antd/es/form';
import { rules } from './form-rules';

const t = (id: string) => id;
const check = (value: unknown) => {
  const rule = rules(t).required('quantity') as RuleObject;
  return rule.validator!(rule, value, () => undefined) as Promise<void>;
};

describe('the required rule', () => {
  it('accepts numbers (zero included), ids, text and lists', async () => {
    for (const value of [0, 7, 'A-01', ['x']]) await expect(check(value)).resolves.toBeUndefined();
  });

  it('refuses empty, blank and missing values with the field message', async () => {
    for (const value of [undefined, null, '', '   ', []]) await expect(check(value)).rejects.toThrow('validation.quantity');
  });
});

describe('the at-most-available rule', () => {
  const most = (value: unknown, available = 10) => {
    const rule = rules((id, v) => `${id} ${JSON.stringify(v)}`).atMostAvailable(available) as RuleObject;
    return rule.validator!(rule, value, () => undefined) as Promise<void>;
  };
  it('accepts up to the available figure (and leaves blanks to the required rule)', async () => {
    for (const value of [1, 10, undefined, null]) await expect(most(value)).resolves.toBeUndefined();
  });
  it('refuses more, naming the available figure, instead of clamping', async () => {
    await expect(most(999)).rejects.toThrow('validation.atMostAvailable {"available":10}');
    await expect(most(2, 1)).rejects.toThrow('validation.atMostAvailable {"available":1}');
  });
});

describe('the not-negative rule (counts)', () => {
  const check = (value: unknown) => {
    const rule = rules((id) => id).notNegative() as RuleObject;
    return rule.validator!(rule, value, () => undefined) as Promise<void>;
  };
  it('accepts 0 and more, and blanks (a line not counted yet)', async () => {
    for (const value of [0, 1, 500, undefined, null]) await expect(check(value)).resolves.toBeUndefined();
  });
  it('refuses a negative count with a message instead of turning it into 0', async () => {
    await expect(check(-5)).rejects.toThrow('validation.notNegative');
  });
});
