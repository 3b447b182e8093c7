import { createHash } from 'node:crypto';
import type { KeyProtector } from '@src/main/db/database-key';

/**
 * The platform seam: Electron's safeStorage as the desktop app uses it. Its secret is the
 * OS user's key-store secret; `forget()` is what a Windows password reset does to DPAPI:
 * what was wrapped before no longer unwraps.
 */
export function osKeyStore(): KeyProtector & { forget(): void } {
  let secret = `user-secret-${Math.random()}`;
  const pad = (length: number) => createHash('sha512').update(secret).digest().subarray(0, length);
  return {
    isAsyncEncryptionAvailable: async () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    async encryptStringAsync(text) {
      const plain = Buffer.from(text, 'utf8');
      const mark = createHash('sha256').update(secret).digest().subarray(0, 4);
      const body = Buffer.from(plain.map((byte, i) => byte ^ pad(plain.length)[i]));
      return Buffer.concat([mark, body]);
    },
    async decryptStringAsync(wrapped) {
      const mark = createHash('sha256').update(secret).digest().subarray(0, 4);
      if (!wrapped.subarray(0, 4).equals(mark)) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      const body = wrapped.subarray(4);
      return { shouldReEncrypt: false, result: Buffer.from(body.map((byte, i) => byte ^ pad(body.length)[i])).toString('utf8') };
    },
    forget() {
      secret = `user-secret-after-reset-${Math.random()}`;
    },
  };
}
