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
