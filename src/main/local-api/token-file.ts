import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from '../support/write-file-atomically';
import { assertPrivate } from '../support/private-path';

export function tokenPath(dataDir: string): string {
  return path.join(dataDir, 'local-api.token');
}

/** 256 random bits, hex: easy to paste into scanner software, no characters to escape. */
function newToken(): string {
  return randomBytes(32).toString('hex');
}

function writeToken(file: string, token: string): void {
  // A reader never sees half a token; 0600 from the first byte.
  writeFileAtomically(file, `${token}\n`);
}

/** The local API's bearer token: created at first start, then read (and its mode checked). */
export function ensureToken(dataDir: string): string {
  const file = tokenPath(dataDir);
  if (!fs.existsSync(file)) writeToken(file, newToken());
  assertPrivate(file, 'file');
  const token = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(token)) {
    // A damaged token file is replaced rather than trusted.
    writeToken(file, newToken());
    return ensureToken(dataDir);
  }
  return token;
}

/** A new token from settings: the old one stops working at once. */
export function regenerateToken(dataDir: string): string {
  writeToken(tokenPath(dataDir), newToken());
  return ensureToken(dataDir);
}
