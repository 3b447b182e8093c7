import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from './clock';

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * The host's log: JSON lines for support, in a user-only file. Call sites pass events,
 * ids, codes and counts, never names, dates of birth or member ids: the end-to-end run
 * scans these files for a canary patient to keep it that way.
 */
export interface HostLog {
  file: string;
  write(event: string, fields?: LogFields): void;
  /** A `(message) => void` logger for a component, its lines tagged with its name. */
  forComponent(component: string): (message: string) => void;
}

/** Past this size the log starts afresh; the previous one is kept as `.1`. */
const MAX_BYTES = 5 * 1024 * 1024;

export function logFilePath(dataDir: string): string {
  return path.join(dataDir, 'logs', 'coverdesk.log');
}

export function createHostLog({ file, clock }: { file: string; clock: Clock }): HostLog {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    if (fs.statSync(file).size > MAX_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    // No log yet.
  }
  const write = (event: string, fields: LogFields = {}) => {
    try {
      fs.appendFileSync(file, `${JSON.stringify({ at: clock.now().toISOString(), event, ...fields })}\n`, { mode: 0o600 });
    } catch {
      // A full disk must not stop the desk; the log is for support, not for the record.
    }
  };
  return { file, write, forComponent: (component) => (message) => write(component, { message }) };
}
