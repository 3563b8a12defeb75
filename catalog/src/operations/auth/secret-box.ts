// Secrets compared without leaking them through timing, and values the catalog stores but only it
// may read (invite tokens, password salts, secrets): sealed with
// AES-256-GCM under a key derived from the token signing key — the one secret every replica shares —
// and the value's purpose, so a value sealed for one purpose never opens as another.
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

function keyOf(signingKey: string, purpose: string): Buffer {
  return createHash('sha256').update(`${purpose}\u0000${signingKey}`).digest();
}

export function seal(plain: string, signingKey: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(signingKey, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The plain value, or undefined when it was sealed under another key (the signing key was rotated) or purpose. */
export function unseal(stored: string, signingKey: string, purpose: string): string | undefined {
  try {
    const raw = Buffer.from(stored, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(signingKey, purpose), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Equal texts, compared by their hashes: neither the content nor the length of either leaks through timing. */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a, 'utf8').digest(), createHash('sha256').update(b, 'utf8').digest());
}
