import { runOnSqliteWorker } from '../db/sqlite-worker';

/**
 * The backup's database copy (`VACUUM INTO`) and its check run on a worker thread with its own
 * read-only connection: on the host's thread the desk stopped answering for ~13 s at 100,000
 * records. A read connection sees a consistent snapshot in WAL mode (the WAL's frames included)
 * while the desk keeps writing on its own.
 */
const COPY = `
try {
  const source = open(workerData.source);
  try {
    source.prepare('VACUUM INTO ?').run(workerData.target);
  } finally {
    source.close();
  }
  const fd = fs.openSync(workerData.target, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
  let copy;
  try {
    copy = open(workerData.target);
  } catch (error) {
    result = failure('verify', error);
  }
  if (copy) {
    try {
      result = { ok: true, problems: quickCheck(copy), counts: tableCounts(copy) };
    } finally {
      copy.close();
    }
  }
} catch (error) {
  result = failure('copy', error);
}
`;

export type DatabaseCopyResult =
  | { ok: true; problems: string[]; counts: Record<string, number> }
  | { ok: false; stage: 'copy' | 'verify'; code: string; message: string };

/** Copies `source` (encrypted with `key`) to `target` with the same key, on a worker thread; answers the copy's check and counts. */
export function copyDatabaseOnWorker(input: { source: string; target: string; key: Buffer }): Promise<DatabaseCopyResult> {
  return runOnSqliteWorker<DatabaseCopyResult>({ body: COPY, key: input.key, data: { source: input.source, target: input.target }, what: "The backup's database copy" });
}
