import { describe, expect, it } from 'vitest';
import { CUSTOMER_DOCUMENT_MAX_BYTES } from '@bolx/contracts';
import { addableTypes, documentProblem, fileSize, integrationBody, integrationFormValues } from './customer-model';

describe('customer documents', () => {
  it('accepts the allowed types up to the size limit', () => {
    expect(documentProblem({ name: 'contract.PDF', size: 1000 })).toBeNull();
    expect(documentProblem({ name: 'photo.jpg', size: 1000 })).toBeNull();
    expect(documentProblem({ name: 'rates.xlsx', size: CUSTOMER_DOCUMENT_MAX_BYTES })).toBeNull();
  });
  it('refuses other types, empty files and files over the limit', () => {
    expect(documentProblem({ name: 'tool.exe', size: 10 })).toBe('type');
    expect(documentProblem({ name: 'noextension', size: 10 })).toBe('type');
    expect(documentProblem({ name: 'a.pdf', size: 0 })).toBe('empty');
    expect(documentProblem({ name: 'a.pdf', size: CUSTOMER_DOCUMENT_MAX_BYTES + 1 })).toBe('size');
  });
  it('writes sizes for people', () => {
    expect(fileSize(512)).toBe('512 B');
    expect(fileSize(1536)).toBe('1.5 KB');
    expect(fileSize(10 * 1024 * 1024)).toBe('10 MB');
  });
});

describe('integration form', () => {
  const item = {
    uniqueid: 7, customerId: 1, integrationId: 2, integrationCode: 'UPS', integrationName: 'UPS', accountName: 'Main', isActive: true,
    properties: [
      { propertyId: 10, propertyKey: 'accountNumber', label: 'Account Number', isSecret: false, value: 'A1' },
      { propertyId: 11, propertyKey: 'apiKey', label: 'API Key', isSecret: true, value: '••••1234' },
    ],
    createdAt: '', updatedAt: '',
  };
  const properties = [10, 11, 12].map((uniqueid) => ({ uniqueid, integrationId: 2, propertyKey: `k${uniqueid}`, label: '', isSecret: uniqueid === 11, isRequired: false }));

  it('sends every property back, the masked secret unchanged so the stored one is kept', () => {
    const values = integrationFormValues(item);
    expect(integrationBody({ ...values, accountName: ' Main ' }, properties)).toEqual({
      accountName: 'Main', isActive: true,
      properties: [{ propertyId: 10, value: 'A1' }, { propertyId: 11, value: '••••1234' }, { propertyId: 12, value: '' }],
    });
  });

  it('offers only carriers the customer has no account with', () => {
    expect(addableTypes([{ integrationId: 1 }, { integrationId: 2 }], [item]).map((t) => t.integrationId)).toEqual([1]);
  });
});
