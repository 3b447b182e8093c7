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
  let size = 0;
  const rotateIfFull = () => {
    try {
      size = fs.statSync(file).size;
      if (size > MAX_BYTES) {
        fs.renameSync(file, `${file}.1`);
        size = 0;
      }
    } catch {
      size = 0; // No log yet.
    }
  };
  rotateIfFull();
  const write = (event: string, fields: LogFields = {}) => {
    const line = `${JSON.stringify({ ...fields, at: clock.now().toISOString(), event })}\n`;
    try {
      // A desk left running for weeks must not grow one file without end.
      if ((size += line.length) > MAX_BYTES) rotateIfFull();
      fs.appendFileSync(file, line, { mode: 0o600 });
    } catch {
      // A full disk must not stop the desk; the log is for support, not for the record.
    }
  };
  return { file, write, forComponent: (component) => (message) => write(component, { message }) };
}
