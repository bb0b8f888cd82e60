import type { RateTableDefinition } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { SecretBox } from '../../platform/crypto.js';
import { integrationSecretBox, openIntegrationValue } from '../customers/integrations.service.js';
import { isLiveCarrier, type CarrierAccount } from './carriers/index.js';
import { shippingRepository as repo } from './shipping.repository.js';

/**
 * A customer's carrier accounts (active ones, or the one asked) as adapters see them: plain properties, rate table,
 * and — only for an account a live carrier's adapter serves — its secret properties unsealed from the secret box.
 * The built-in adapters need no credentials, so their accounts' secrets stay sealed. The unsealed values live in
 * memory for the adapter call; no answer of the API is built from a CarrierAccount.
 */
export class CarrierAccounts {
  private readonly box: SecretBox;

  constructor(tokenSecret: Uint8Array) {
    this.box = integrationSecretBox(tokenSecret);
  }

  async load(db: Executor, customerId: number, accountId?: number): Promise<CarrierAccount[]> {
    const rows = await repo.carrierAccounts(db, customerId, accountId);
    const values = await repo.accountProperties(db, rows.map((r) => r.id));
    return rows.map((r) => {
      const mine = values.filter((v) => v.customer_integration_id === r.id);
      const rateTable = r.definition ? (JSON.parse(r.definition) as RateTableDefinition) : null;
      const live = isLiveCarrier({ carrierCode: r.code, rateTable });
      const credentials: Record<string, string> = {};
      for (const v of live ? mine.filter((x) => x.is_secret === 1) : []) {
        // A secret that no longer opens (the token secret changed) is left out: the live carrier refuses the call.
        const plain = openIntegrationValue(this.box, v);
        if (plain !== null) credentials[v.key] = plain;
      }
      return {
        id: r.id, customerId: r.customer_id, name: r.account_name, carrierCode: r.code,
        properties: Object.fromEntries(mine.filter((v) => v.is_secret !== 1).map((v) => [v.key, v.value])),
        credentials, rateTable,
      };
    });
  }
}
