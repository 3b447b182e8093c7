import fs from 'node:fs';
import path from 'node:path';
import { openWithKey } from '../backup/desk-backup';
import { databaseFileState } from '../db/database-cipher';
import { DatabaseKeyError, keyFilePaths, readOrCreateKeyFile, readOrCreateWrappedKey, writePrivateFile, type KeyProtector } from '../db/database-key';
import type { Clock } from '../support/clock';
import { openWithRecoveryCode, recoveryFilePath } from './recovery-code';

/**
 * Where a desk keeps its key: wrapped by the OS key store (the desktop app, `protector`), or
 * the plain user-only file (the web host and tests, no protector). The seam a test swaps for
 * a key store that has forgotten.
 */
export interface DeskKeyStore {
  protector?: KeyProtector;
  platform: NodeJS.Platform;
}

export type DeskKeyState =
  | { state: 'open'; key: Buffer }
  /** The key is lost but a recovery code can bring it back: the desk asks for it on one screen. */
  | { state: 'needs_recovery_code'; message: string };

function databaseFile(dataDir: string): string {
  // hostPaths' name; not imported from the host, which imports this module's neighbours.
  return path.join(dataDir, 'coverdesk.sqlite');
}

/**
 * The desk's key at start. A key the store has lost (its file gone, or the OS cannot unwrap
 * it: a Windows password reset loses DPAPI's secrets) with an encrypted database and a
 * recovery wrap beside it is not an error: the desk asks for the recovery code. Without a
 * recovery wrap it stays the error it was.
 */
export async function openDeskKey(store: DeskKeyStore, input: { dataDir: string }): Promise<DeskKeyState> {
  const paths = keyFilePaths(input.dataDir);
  const slot = { mayCreate: databaseFileState(databaseFile(input.dataDir)) !== 'encrypted' };
  try {
    const key = store.protector
      ? await readOrCreateWrappedKey({ ...slot, file: paths.wrapped }, { protector: store.protector, platform: store.platform })
      : readOrCreateKeyFile({ ...slot, file: paths.plain });
    return { state: 'open', key };
  } catch (error) {
    if (error instanceof DatabaseKeyError && error.reason === 'lost' && fs.existsSync(recoveryFilePath(input.dataDir))) {
      return {
        state: 'needs_recovery_code',
        message: 'Coverdesk’s encryption key is no longer in this computer’s key store (a password reset or a new user account loses it). Enter the recovery code from the desk’s recovery sheet: the key is opened with it and kept again, and nothing is lost.',
      };
    }
    throw error;
  }
}

/**
 * Opens a desk whose key store lost its key: the code unwraps the key, the key must open the
 * database, the key is kept again in the store (re-wrapped for the OS), and only then is the
 * code marked used. A mistyped, wrong or used code changes nothing (RecoveryCodeError).
 */
export async function recoverDeskKey(deps: DeskKeyStore & { clock: Clock }, input: { dataDir: string; code: string }): Promise<Buffer> {
  const key = openWithRecoveryCode(deps, { dataDir: input.dataDir, code: input.code, consume: false });
  const database = databaseFile(input.dataDir);
  // The wrap opened, but a key that does not open this database must not become its key.
  if (databaseFileState(database) === 'encrypted') openWithKey(database, key, true).close();
  const paths = keyFilePaths(input.dataDir);
  if (deps.protector) writePrivateFile(paths.wrapped, await deps.protector.encryptStringAsync(key.toString('hex')));
  else writePrivateFile(paths.plain, `${key.toString('hex')}\n`);
  openWithRecoveryCode(deps, { dataDir: input.dataDir, code: input.code, consume: true });
  return key;
}
