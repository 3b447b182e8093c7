import fs from 'node:fs';
import path from 'node:path';
import { assertPrivate } from '../local-api/private-path';

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
 * key in it may already be exposed, and the user should know.
 */
export function createFileSecretStore(dataDir: string): SecretStore {
  const file = secretsFilePath(dataDir);

  function read(): Partial<Record<SecretName, string>> {
    if (!fs.existsSync(file)) return {};
    assertPrivate(file, 'file', 'use the secrets in it');
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as Partial<Record<SecretName, string>>) : {};
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
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(secrets), { mode: 0o600 });
      fs.renameSync(temp, file);
    },
  };
}
