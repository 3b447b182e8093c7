import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensurePrivateDir } from '../support/private-path';
import { writeFileAtomically } from '../support/write-file-atomically';

export function socketDir(dataDir: string): string {
  return path.join(dataDir, 'local-api');
}

export function socketPath(dataDir: string): string {
  return path.join(socketDir(dataDir), 'local-api.sock');
}

/** Where Windows named pipes live; tests point it at a folder so the same code runs here. */
export const WINDOWS_PIPE_PREFIX = '\\\\.\\pipe\\';

/**
 * Windows: a pipe name no one can guess. The pipe namespace is per machine and open to every
 * local user, so a predictable name (`coverdesk-<user>`) could be created first by another
 * user, who would then receive a scanner's token. 128 random bits per start, published only
 * in the user-only data folder (`pipeFile`).
 */
export function newPipePath(prefix = WINDOWS_PIPE_PREFIX, random: (bytes: number) => Buffer = randomBytes): string {
  return `${prefix}coverdesk-${random(16).toString('hex')}`;
}

/** The file integrators read to find this run's pipe (Windows only). */
export function pipeFile(dataDir: string): string {
  return path.join(dataDir, 'local-api.pipe');
}

/** Publishes the pipe's name, user-only and never half-written, as the token file is. */
export function publishPipePath(dataDir: string, target: string): void {
  writeFileAtomically(pipeFile(dataDir), `${target}\n`);
}

/** A name somebody else already serves: with first-instance-only pipes, listen says EADDRINUSE. */
export function isAddressInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EADDRINUSE';
}

/** Answers whether something is listening on a socket path right now. */
function isListening(target: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(target);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

export class LocalApiInUseError extends Error {
  constructor(target: string) {
    super(`Another Coverdesk is already serving the local API at ${target}. Close it, or start this one with another data folder.`);
    this.name = 'LocalApiInUseError';
  }
}

/**
 * Prepares the Unix socket's path: a user-only folder (refused if loose, never silently
 * tightened: loose permissions mean someone changed them), and no stale socket from a
 * crashed run.
 */
export async function prepareSocketPath(dataDir: string): Promise<string> {
  ensurePrivateDir(socketDir(dataDir));
  const target = socketPath(dataDir);
  if (fs.existsSync(target)) {
    if (await isListening(target)) throw new LocalApiInUseError(target);
    fs.unlinkSync(target);
  }
  return target;
}
