import { conflict, unprocessable } from './errors.js';
import type { UnitOfWork } from './unit-of-work.js';
import { documentNumbers } from './document-numbers.js';

/**
 * GS1 identifiers: the SSCC-18 of a carton or pallet (extension digit, the customer's GS1 company prefix, a serial
 * reference from a per-customer sequence that never repeats, a mod-10 check digit) and the GS1-128 element strings
 * carrying it with its application identifiers (AIs).
 */

/** The GS1 mod-10 check digit of a digit string: weights 3 and 1 alternating from the rightmost digit. */
export function gs1CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new Error('gs1CheckDigit: digits only');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

/** A GS1 company prefix is 7 to 10 digits (in an SSCC, the serial reference fills the rest of the 16). */
export const GS1_COMPANY_PREFIX = /^\d{7,10}$/;

/** The SSCC-18: extension digit (0–9), company prefix, serial reference padded to 16 - prefix length, check digit. */
export function buildSscc(companyPrefix: string, extension: number, serial: number): string {
  if (!GS1_COMPANY_PREFIX.test(companyPrefix)) throw new Error('buildSscc: the company prefix must be 7 to 10 digits');
  if (!Number.isInteger(extension) || extension < 0 || extension > 9) throw new Error('buildSscc: extension digit 0–9');
  const serialDigits = 16 - companyPrefix.length;
  const reference = String(serial);
  if (!Number.isInteger(serial) || serial < 0 || reference.length > serialDigits) {
    throw conflict(`The GS1 company prefix ${companyPrefix} has no SSCC serial references left`);
  }
  const body = `${extension}${companyPrefix}${reference.padStart(serialDigits, '0')}`;
  return body + gs1CheckDigit(body);
}

export const isValidSscc = (sscc: string) => /^\d{18}$/.test(sscc) && gs1CheckDigit(sscc.slice(0, 17)) === Number(sscc[17]);

/**
 * The next SSCC of a customer, taken in the caller's transaction from the customer's own serial sequence (a
 * rolled-back label gives its serial back, as it was never printed). 422 when the customer has no GS1 prefix.
 */
export async function nextSscc(uow: UnitOfWork, customerId: number, extension = 0): Promise<string> {
  const customer = await uow.tx.selectFrom('customer').select(['gs1_company_prefix', 'name']).where('id', '=', customerId).executeTakeFirst();
  const prefix = customer?.gs1_company_prefix;
  if (!prefix) throw unprocessable(`Customer ${customer?.name ?? customerId} has no GS1 company prefix`, { gs1CompanyPrefix: 'Set the customer\'s GS1 company prefix to print SSCC labels' });
  const { value } = await documentNumbers.next(uow, 'SSCC', { customerId });
  return buildSscc(prefix, extension, value);
}

/** One GS1 element: an application identifier and its data, e.g. ['00', sscc], ['420', '10001'], ['400', 'PO-1']. */
export type Gs1Element = readonly [ai: string, data: string];

/** The element string in bracketed form, "(00)106141411234567897(420)10001", as bwip-js and people read it. */
export const gs1Text = (elements: readonly Gs1Element[]) => elements.map(([ai, data]) => `(${ai})${data}`).join('');
