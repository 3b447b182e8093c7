import Database from 'better-sqlite3-multiple-ciphers';
import fs from 'node:fs';
import path from 'node:path';
import { DATABASE_KEY_BYTES } from './database-key';

type Sqlite = Database.Database;

/** Every plaintext SQLite file starts with these 16 bytes; an encrypted one never does. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export type DatabaseFileState = 'missing' | 'plaintext' | 'encrypted';

export function databaseFileState(file: string): DatabaseFileState {
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) return 'missing';
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head.equals(SQLITE_HEADER) ? 'plaintext' : 'encrypted';
}

/** The key did not open the file: wrong key, or not a Coverdesk database at all. */
export class WrongDatabaseKeyError extends Error {
  constructor(readonly file: string) {
    super(
      `Coverdesk could not unlock its database (${path.basename(file)}): the encryption key does not match this file. ` +
        'It was not opened or changed. If the data folder came from another computer or user account, its key must come with it.',
    );
    this.name = 'WrongDatabaseKeyError';
  }
}

function keyPragmaValue(key: Buffer): string {
  if (key.length !== DATABASE_KEY_BYTES) throw new Error(`A database key must be ${DATABASE_KEY_BYTES} bytes.`);
  // A raw key (x'…'): SQLCipher's key derivation exists to stretch passwords; this key is
  // already 256 random bits, and skipping it keeps opening the database under a millisecond.
  return `"x'${key.toString('hex')}'"`;
}

/** The pragmas that unlock the file, in order: also what a worker thread's own connection runs (desk-backup.ts). */
export function databaseKeyPragmas(key: Buffer): string[] {
  return [`cipher = 'sqlcipher'`, `legacy = 4`, `key = ${keyPragmaValue(key)}`];
}

/**
 * SQLCipher v4's format (AES-256-CBC, HMAC-SHA512 per page) through SQLite3 Multiple
 * Ciphers: a format auditors know, and that DB Browser for SQLCipher opens given the key.
 * Must run before anything reads the file.
 */
export function applyDatabaseKey(sqlite: Sqlite, key: Buffer): void {
  for (const pragma of databaseKeyPragmas(key)) sqlite.pragma(pragma);
  try {
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw new WrongDatabaseKeyError(sqlite.name);
    throw error;
  }
}

/**
 * The safe way to change a database's encryption: SQLite3 Multiple Ciphers cannot rekey a
 * database in WAL mode, so everything in the WAL is checkpointed into the main file first,
 * the rekey runs under a rollback journal (all or nothing), and WAL comes back afterwards.
 * `newKey` null would decrypt; Coverdesk never asks for that.
 */
function rekeyInPlace(sqlite: Sqlite, newKey: Buffer): void {
  const mode = sqlite.pragma('journal_mode', { simple: true });
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.pragma('journal_mode = DELETE');
  sqlite.pragma(`cipher = 'sqlcipher'`);
  sqlite.pragma(`legacy = 4`);
  sqlite.pragma(`rekey = ${keyPragmaValue(newKey)}`);
  sqlite.pragma(`journal_mode = ${mode === 'wal' ? 'WAL' : 'DELETE'}`);
}

/**
 * Encrypts a database written before Coverdesk encrypted its data (same file, same
 * records). Idempotent: an already encrypted file is left alone.
 */
export function encryptPlaintextDatabase(file: string, key: Buffer): void {
  if (databaseFileState(file) !== 'plaintext') return;
  const sqlite = new Database(file);
  try {
    rekeyInPlace(sqlite, key);
  } finally {
    sqlite.close();
  }
  if (databaseFileState(file) !== 'encrypted') throw new Error(`${path.basename(file)} is still plaintext after encrypting it.`);
}

/** Changes an encrypted database's key (e.g. after the old one may have leaked). */
export function rekeyDatabase(file: string, oldKey: Buffer, newKey: Buffer): void {
  const sqlite = new Database(file);
  try {
    applyDatabaseKey(sqlite, oldKey);
    rekeyInPlace(sqlite, newKey);
  } finally {
    sqlite.close();
  }
}
