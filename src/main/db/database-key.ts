import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { assertPrivate } from '../support/private-path';
import { writeFileAtomically } from '../support/write-file-atomically';

/** 256 bits: the one key that protects the database and (through a derived key) the photos. */
export const DATABASE_KEY_BYTES = 32;

export function newDatabaseKey(): Buffer {
  return randomBytes(DATABASE_KEY_BYTES);
}

/** Why Coverdesk cannot get at its encryption key. The message is shown to the user as is. */
export class DatabaseKeyError extends Error {
  /** `lost`: the key is gone or this user's key store cannot open it (the recovery code can help). */
  constructor(
    message: string,
    readonly reason: 'lost' | 'other' = 'other',
  ) {
    super(message);
    this.name = 'DatabaseKeyError';
  }
}

/** Where each host keeps its key. The desktop app's is wrapped by the OS key store. */
export function keyFilePaths(dataDir: string) {
  return {
    /** The web host and tests: the raw key, hex, readable by this user only. */
    plain: path.join(dataDir, 'database.key'),
    /** The desktop app: the key encrypted by safeStorage (Keychain, DPAPI, libsecret). */
    wrapped: path.join(dataDir, 'database.key.safe'),
  };
}

/**
 * May a new key be made? Only while no encrypted database exists: a new key for an
 * encrypted file would lock its records away for good, so a missing key is an error then.
 */
export interface KeySlot {
  file: string;
  /** False once an encrypted database exists that this key must open. */
  mayCreate: boolean;
}

function missingKey(file: string): DatabaseKeyError {
  return new DatabaseKeyError(
    `Coverdesk's database is encrypted, but its key (${path.basename(file)}) is missing from ${path.dirname(file)}. ` +
      'Nothing was changed. Restore the key file from where the data folder came from (or a backup) and start Coverdesk again.',
    'lost',
  );
}

/** User-only from the first byte, and never half written: a half key is a lost database. */
export function writePrivateFile(file: string, data: Buffer | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomically(file, data, 0o600);
}

/**
 * The web host's key: 64 hex characters in a file only this user may read. A damaged file
 * is an error, never replaced: a new key would not open the existing database.
 */
export function readOrCreateKeyFile({ file, mayCreate }: KeySlot): Buffer {
  if (!fs.existsSync(file)) {
    if (!mayCreate) throw missingKey(file);
    writePrivateFile(file, `${newDatabaseKey().toString('hex')}\n`);
  }
  assertPrivate(file, 'file', 'open its database');
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new DatabaseKeyError(`Coverdesk's key file (${file}) is damaged: it must hold 64 hexadecimal characters. Nothing was changed; restore it from a backup.`);
  }
  return Buffer.from(hex, 'hex');
}

/** The part of Electron's `safeStorage` the desktop app uses, injected so this stays plain Node. */
export interface KeyProtector {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  /** Linux only: which OS store backs safeStorage. */
  getSelectedStorageBackend?(): string;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
}

/**
 * Refuses a key store that does not protect anything. On Linux without a keyring,
 * safeStorage falls back to `basic_text`, a key hard-coded in Chromium: a key wrapped with
 * it is as readable as the file it sits in.
 */
async function assertProtectorUsable(protector: KeyProtector, platform: NodeJS.Platform): Promise<void> {
  if (platform === 'linux') {
    const backend = protector.getSelectedStorageBackend?.() ?? 'unknown';
    if (backend === 'basic_text' || backend === 'unknown') {
      throw new DatabaseKeyError(
        `Coverdesk will not start: this computer has no secure place to keep its encryption key (Electron's safeStorage reports the "${backend}" backend, which protects nothing). ` +
          'Install and unlock a keyring (GNOME Keyring or KWallet), sign in to the desktop session again, and restart Coverdesk.',
      );
    }
  }
  if (!(await protector.isAsyncEncryptionAvailable())) {
    throw new DatabaseKeyError(
      'Coverdesk will not start: the operating system key store (Keychain on macOS, DPAPI on Windows) is not available to it, so its encryption key cannot be kept safely. Sign in to your user account normally and restart Coverdesk.',
    );
  }
}

/**
 * The desktop app's key: random, wrapped by the OS key store and kept wrapped in
 * `database.key.safe`. Re-wrapped when the OS says its own key was rotated.
 */
export async function readOrCreateWrappedKey(slot: KeySlot, deps: { protector: KeyProtector; platform: NodeJS.Platform }): Promise<Buffer> {
  await assertProtectorUsable(deps.protector, deps.platform);
  const { file } = slot;
  if (!fs.existsSync(file)) {
    if (!slot.mayCreate) throw missingKey(file);
    const key = newDatabaseKey();
    writePrivateFile(file, await deps.protector.encryptStringAsync(key.toString('hex')));
    return key;
  }
  let unwrapped: { shouldReEncrypt: boolean; result: string };
  try {
    unwrapped = await deps.protector.decryptStringAsync(fs.readFileSync(file));
  } catch {
    throw new DatabaseKeyError(
      `Coverdesk could not unlock its encryption key (${file}) with this user's key store. Nothing was changed. ` +
        'The data folder may have been copied from another user or computer: Coverdesk can only open it as the user who created it.',
      'lost',
    );
  }
  if (!/^[0-9a-f]{64}$/.test(unwrapped.result)) {
    throw new DatabaseKeyError(`Coverdesk's wrapped key file (${file}) is damaged. Nothing was changed; restore it from a backup.`);
  }
  if (unwrapped.shouldReEncrypt) writePrivateFile(file, await deps.protector.encryptStringAsync(unwrapped.result));
  return Buffer.from(unwrapped.result, 'hex');
}
