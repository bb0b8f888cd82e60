import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_SALT = 'bolx-wms/secret-box';

/**
 * Encrypts stored secrets (carrier and sales-channel credentials…) with AES-256-GCM. Each use gets its own
 * key, derived with HKDF from the server's token secret and a distinct `info` label, so a key for one purpose
 * never signs tokens or opens another purpose's secrets. The associated data binds a sealed value to its row,
 * so a value copied into another row does not open.
 *
 * Sealed text: `v1.<base64url(iv | tag | ciphertext)>`.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterSecret: Uint8Array, info: string) {
    if (!info) throw new Error('SecretBox needs an info label');
    this.key = Buffer.from(hkdfSync('sha256', masterSecret, HKDF_SALT, info, 32));
  }

  seal(plain: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The plain text; throws when the value was tampered with, moved to another row, or sealed with another key. */
  open(sealed: string, associatedData: string): string {
    const [version, payload] = sealed.split('.', 2);
    if (version !== VERSION || !payload) throw new Error('Unknown sealed-value format');
    const raw = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

export const MASK = '••••';

/** How a secret is shown: the last four characters of a long one, nothing of a short one. */
export function maskSecret(plain: string): string {
  return plain.length >= 12 ? `${MASK}${plain.slice(-4)}` : MASK;
}
