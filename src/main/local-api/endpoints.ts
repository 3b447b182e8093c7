import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensurePrivateDir } from './private-path';

export function socketDir(dataDir: string): string {
  return path.join(dataDir, 'local-api');
}

export function socketPath(dataDir: string): string {
  return path.join(socketDir(dataDir), 'local-api.sock');
}

/** Windows: one named pipe per user; the pipe namespace is per machine, so the name carries the user. */
export function pipePath(username = os.userInfo().username): string {
  const safe = username.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `\\\\.\\pipe\\coverdesk-${safe}`;
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
