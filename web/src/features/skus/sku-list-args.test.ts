import { describe, expect, it } from 'vitest';
import { customerScope, toDimensionListRequest, toSkuListRequest } from './sku-list-args';

const base = { searchQuery: 'cable', pageNumber: 2, pageSize: 10 };

describe('SKU list bodies', () => {
  it("turns the filter bar's values into the types GetAllSkus validates", () => {
    expect(toSkuListRequest({ ...base, filters: { customerId: '7', isKit: true, isActive: 'active', category: '' } })).toEqual({
      ...base, filters: { customerId: 7, isKit: true, isActive: 'active' },
    });
    // the string a select would hold is never sent as a yes/no filter
    expect(toSkuListRequest({ ...base, filters: { isKit: 'true' } }).filters).toEqual({});
    expect(toSkuListRequest({ ...base, filters: { isKit: false } }).filters).toEqual({ isKit: false });
  });
  it('builds the dimensions body', () => {
    expect(toDimensionListRequest({ ...base, filters: { kind: 'package', missingOnly: true } }).filters).toEqual({ kind: 'package', missingOnly: true });
  });
  it("narrows to the header's client unless ALL", () => {
    expect(customerScope({ customerId: 0 })).toEqual({});
    expect(customerScope({ customerId: 4 })).toEqual({ customerId: 4 });
  });
});

describe('withoutSingleChoice', () => {
  it('drops a client filter that offers one client only', async () => {
    const { withoutSingleChoice } = await import('./sku-list-args');
    const one = [{ key: 'customerId', label: 'Client', type: 'select' as const, options: [{ label: 'Fjord', value: 1 }] }, { key: 'isKit', label: 'Kit', type: 'boolean' as const }];
    expect(withoutSingleChoice(one).map((f) => f.key)).toEqual(['isKit']);
    const two = [{ ...one[0], options: [{ label: 'A', value: 1 }, { label: 'B', value: 2 }] }];
    expect(withoutSingleChoice(two)).toHaveLength(1);
  });
});
