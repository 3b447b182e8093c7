import fs from 'node:fs';
import path from 'node:path';
import { assertPrivate } from '../support/private-path';
import { writeFileAtomically } from '../support/write-file-atomically';
import { SEALED_SECRETS, deriveFileKey, isSealed, seal, unseal } from '../db/sealed-file';

/** The secrets Coverdesk keeps. Never in the database, never in logs, never sent back to the UI. */
export type SecretName = 'upstream_api_key';

/**
 * Where secrets live. The web host and the tests use a user-only file in the data dir; the
 * desktop app can swap in one backed by Electron's safeStorage (Keychain, DPAPI) without
 * anything else changing.
 */
export interface SecretStore {
  get(name: SecretName): string | null;
  set(name: SecretName, value: string | null): void;
}

export function secretsFilePath(dataDir: string): string {
  return path.join(dataDir, 'secrets.json');
}

/**
 * Secrets as JSON in `<dataDir>/secrets.json`, mode 0600, written beside and renamed so a
 * crash never leaves half a file. A file other users can read is refused, not used: the
 * key in it may already be exposed, and the user should know. With the host's database
 * key the file is sealed (AES-256-GCM, a key of its own derived from the database key), so
 * in the desktop app it is as safe as the database: behind the OS key store.
 */
export function createFileSecretStore(dataDir: string, options: { key?: Buffer } = {}): SecretStore {
  const file = secretsFilePath(dataDir);
  const fileKey = options.key ? deriveFileKey(options.key, SEALED_SECRETS) : null;
  const label = path.basename(file);

  function write(secrets: Partial<Record<SecretName, string>>): void {
    const json = Buffer.from(JSON.stringify(secrets), 'utf8');
    writeFileAtomically(file, fileKey ? seal(fileKey, SEALED_SECRETS, label, json) : json);
  }

  function read(): Partial<Record<SecretName, string>> {
    if (!fs.existsSync(file)) return {};
    assertPrivate(file, 'file', 'use the secrets in it');
    const bytes = fs.readFileSync(file);
    // A sealed file that will not open is an error to see, not an empty store to overwrite.
    const text = fileKey && isSealed(SEALED_SECRETS, bytes) ? unseal(fileKey, SEALED_SECRETS, label, bytes).toString('utf8') : bytes.toString('utf8');
    try {
      const parsed: unknown = JSON.parse(text);
      const secrets = parsed && typeof parsed === 'object' ? (parsed as Partial<Record<SecretName, string>>) : {};
      // A file from before sealing was on is sealed at first read.
      if (fileKey && !isSealed(SEALED_SECRETS, bytes)) write(secrets);
      return secrets;
    } catch {
      // A damaged file holds nothing usable; the user enters the key again.
      return {};
    }
  }

  return {
    get(name) {
      const value = read()[name];
      return typeof value === 'string' ? value : null;
    },
    set(name, value) {
      const secrets = read();
      if (value === null) delete secrets[name];
      else secrets[name] = value;
      write(secrets);
    },
  };
}
