import type { Executor } from '../../db/schema.js';
import { notFound } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import { customerRepository } from './customers.repository.js';

/**
 * The customer a call is about, held to the caller: 403 outside their customers, 404 when there is none.
 * Carriers, channels and documents all go through this before touching a customer's data.
 */
export async function requireCustomer(db: Executor, principal: Principal, customerId: number) {
  principal.scope.assert({ customerId });
  const row = await customerRepository.findById(db, customerId);
  if (!row) throw notFound('Customer');
  return row;
}
