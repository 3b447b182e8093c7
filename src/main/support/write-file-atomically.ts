import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

/**
 * Writes beside, fsyncs, then renames over `file`: a crash leaves the old content or the
 * new, never half of it. The file is created with `mode` (user-only by default) from its
 * first byte, so a secret is never readable by others even for a moment.
 */
export function writeFileAtomically(file: string, data: Uint8Array | string, mode = 0o600): void {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, 'wx', mode);
  try {
    try {
      fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    // A write the disk had no room for leaves no half file behind, and frees what it took.
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
