import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ServiceError } from '../../shared/service-error';
import { DATABASE_KEY_BYTES } from '../db/database-key';
import type { Clock } from '../support/clock';
import { writeFileAtomically } from '../support/write-file-atomically';

/**
 * The recovery code (issue 28, item 5): a one-time code printed on the recovery sheet that
 * opens the database key when the OS key store has lost it, and grants emergency access once.
 *
 * The code: 22 symbols of Crockford's base32 (110 random bits) and 2 check symbols (the first
 * 10 bits of SHA-256 over the 22), read and typed as six groups of four. The check catches a
 * typo before the slow KDF runs (a random mistype passes it once in 1,024). Crockford's
 * alphabet has no I, L, O or U; those read as 1, 1, 0 when typed.
 *
 * What is kept (`database.key.recovery`, beside the OS-wrapped key): the database key
 * encrypted with AES-256-GCM under scrypt(code), with scrypt's parameters and salt. The code
 * itself, or a hash of it, is never stored: the GCM tag is the only thing that says a code is
 * right, and checking it costs the KDF.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const DATA_SYMBOLS = 22;
const CHECK_SYMBOLS = 2;
const GROUP = 4;
const FORMAT = 1;
const AAD = Buffer.from('coverdesk recovery key v1', 'utf8');

/** scrypt's cost. N 2^16, r 8: 64 MiB and about a quarter second per try. Stored with the wrap. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 16, r: 8, p: 1 };

export function recoveryFilePath(dataDir: string): string {
  return path.join(dataDir, 'database.key.recovery');
}

interface RecoveryFile {
  format: typeof FORMAT;
  kdf: { name: 'scrypt'; salt: string } & ScryptParams;
  nonce: string;
  /** The database key, encrypted; then GCM's tag. Base64. */
  wrapped: string;
  tag: string;
  made_at: string;
  /** Set when the code opened the key or granted emergency access: a used code is refused. */
  used_at: string | null;
}

export type RecoveryRefusal = 'mistyped' | 'wrong' | 'used' | 'none';

/** A recovery code refused; the message is for the person at the desk and holds no part of the code. */
export class RecoveryCodeError extends ServiceError {
  constructor(
    readonly reason: RecoveryRefusal,
    message: string,
  ) {
    super(reason === 'mistyped' ? 'validation_failed' : `recovery_code_${reason}`, message, reason === 'mistyped' ? [{ path: 'code', code: 'invalid_format', message }] : undefined, {
      status: reason === 'mistyped' ? 422 : 403,
      type: 'invalid_request_error',
    });
    this.name = 'RecoveryCodeError';
  }
}

function checkSymbols(data: string): string {
  const digest = createHash('sha256').update(data, 'ascii').digest();
  const bits = (digest[0] << 2) | (digest[1] >> 6);
  return ALPHABET[bits >> 5] + ALPHABET[bits & 31];
}

function grouped(symbols: string): string {
  return symbols.match(new RegExp(`.{1,${GROUP}}`, 'g'))!.join('-');
}

/** A new code, grouped for reading aloud: `XXXX-XXXX-XXXX-XXXX-XXXX-XXXX`. */
export function newRecoveryCode(random: (bytes: number) => Buffer = randomBytes): string {
  const bytes = random(DATA_SYMBOLS);
  let data = '';
  // 256 is a multiple of 32: taking each byte mod 32 is unbiased.
  for (let i = 0; i < DATA_SYMBOLS; i++) data += ALPHABET[bytes[i] % 32];
  return grouped(data + checkSymbols(data));
}

const MISTYPED_FORMAT =
  'The recovery code must be the 24 letters and digits printed on the recovery sheet (six groups of four; spaces and dashes do not matter).';

/**
 * The code as typed → its canonical form, or a "mistyped" error naming the field. Case,
 * spaces and dashes do not matter; O reads as 0, I and L as 1.
 */
export function parseRecoveryCode(typed: string): string {
  const symbols = typed
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (symbols.length !== DATA_SYMBOLS + CHECK_SYMBOLS || [...symbols].some((c) => !ALPHABET.includes(c))) {
    throw new RecoveryCodeError('mistyped', `${MISTYPED_FORMAT} Nothing was changed.`);
  }
  const data = symbols.slice(0, DATA_SYMBOLS);
  if (checkSymbols(data) !== symbols.slice(DATA_SYMBOLS)) {
    throw new RecoveryCodeError('mistyped', 'The recovery code has a typo: its check letters do not match. Read it again from the sheet, group by group. Nothing was changed.');
  }
  return grouped(symbols);
}

function kdf(code: string, salt: Buffer, params: ScryptParams): Buffer {
  // maxmem: scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is below the product's cost.
  return scryptSync(code, salt, 32, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 });
}

/** The database key wrapped by `code` (canonical or as typed), as the recovery file holds it. */
export function wrapKeyWithCode(key: Buffer, code: string, made_at: string, params: ScryptParams = DEFAULT_SCRYPT): RecoveryFile {
  if (key.length !== DATABASE_KEY_BYTES) throw new Error(`A database key must be ${DATABASE_KEY_BYTES} bytes.`);
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kdf(parseRecoveryCode(code), salt, params), nonce);
  cipher.setAAD(AAD);
  const wrapped = Buffer.concat([cipher.update(key), cipher.final()]);
  return {
    format: FORMAT,
    kdf: { name: 'scrypt', ...params, salt: salt.toString('base64') },
    nonce: nonce.toString('base64'),
    wrapped: wrapped.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    made_at,
    used_at: null,
  };
}

const WRONG = 'That recovery code does not open this desk: it is a well-formed code, but not the one on this desk’s current recovery sheet (a newer sheet replaces older ones). Nothing was changed.';

/** The key inside `file`, if `code` is the one it was wrapped with. Checks the format first, then the KDF. */
export function unwrapKeyWithCode(file: RecoveryFile, code: string): Buffer {
  const canonical = parseRecoveryCode(code);
  const { N, r, p, salt } = file.kdf;
  try {
    const decipher = createDecipheriv('aes-256-gcm', kdf(canonical, Buffer.from(salt, 'base64'), { N, r, p }), Buffer.from(file.nonce, 'base64'));
    decipher.setAAD(AAD);
    decipher.setAuthTag(Buffer.from(file.tag, 'base64'));
    const key = Buffer.concat([decipher.update(Buffer.from(file.wrapped, 'base64')), decipher.final()]);
    if (key.length !== DATABASE_KEY_BYTES) throw new Error('short key');
    return key;
  } catch {
    throw new RecoveryCodeError('wrong', WRONG);
  }
}

export function readRecoveryFile(file: string): RecoveryFile | null {
  if (!fs.existsSync(file)) return null;
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as RecoveryFile;
  if (parsed.format !== FORMAT || parsed.kdf?.name !== 'scrypt') throw new Error(`${path.basename(file)} is not a recovery file this Coverdesk reads.`);
  return parsed;
}

export interface RecoveryStatus {
  made_at: string | null;
  used_at: string | null;
}

export function recoveryStatus(dataDir: string): RecoveryStatus {
  const file = readRecoveryFile(recoveryFilePath(dataDir));
  return { made_at: file?.made_at ?? null, used_at: file?.used_at ?? null };
}

export interface RecoveryDeps {
  clock: Clock;
  /** scrypt's cost for a new sheet (tests: a small N); the product's default otherwise. */
  scrypt?: ScryptParams;
  random?: (bytes: number) => Buffer;
}

/**
 * A new recovery sheet's code: the database key wrapped with it replaces the previous wrap
 * (the old sheet stops working). Answers the code, to be shown once and never stored.
 */
export function makeRecoveryCode(deps: RecoveryDeps, input: { dataDir: string; key: Buffer }): { code: string; made_at: string } {
  const code = newRecoveryCode(deps.random);
  const made_at = deps.clock.now().toISOString();
  writeFileAtomically(recoveryFilePath(input.dataDir), JSON.stringify(wrapKeyWithCode(input.key, code, made_at, deps.scrypt), null, 2));
  return { code, made_at };
}

/**
 * Checks `code` against the recovery file in `dataDir` and answers the database key; with
 * `consume`, marks the code used (one write, after every check passed). Refused (nothing
 * written): a mistyped code (before the KDF), no recovery file, a used code, a wrong code.
 */
export function openWithRecoveryCode(deps: Pick<RecoveryDeps, 'clock'>, input: { dataDir: string; code: string; consume: boolean }): Buffer {
  const canonical = parseRecoveryCode(input.code);
  const fileName = recoveryFilePath(input.dataDir);
  const file = readRecoveryFile(fileName);
  if (!file) throw new RecoveryCodeError('none', 'This desk has no recovery code: none was made here, or its file is missing from the data folder. Nothing was changed.');
  if (file.used_at) {
    throw new RecoveryCodeError('used', `This desk’s recovery code was already used (${file.used_at}); a used code does not work again. Make a new recovery sheet in Settings. Nothing was changed.`);
  }
  const key = unwrapKeyWithCode(file, canonical);
  if (input.consume) writeFileAtomically(fileName, JSON.stringify({ ...file, used_at: deps.clock.now().toISOString() }, null, 2));
  return key;
}
