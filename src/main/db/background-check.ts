import { runOnSqliteWorker, SqliteWorkerTimeout } from './sqlite-worker';

/** What the start-up check answered: `timed_out` and `failed` leave the desk as it is (logged). */
export type BackgroundCheck = { state: 'ok' } | { state: 'damaged'; problems: string[] } | { state: 'timed_out'; ms: number } | { state: 'failed'; error: string };

/**
 * How long a desk starting for a person waits before its check: the check reads every page
 * (0.9 s of a core at 100,000 records), and on two cores beside the host's start and the
 * browser's first page it delayed the first screen by a third of a second or more.
 */
export const START_CHECK_DELAY_MS = 5_000;

/** A large file's check took 0.9 s at 100,000 records: a minute means something is wrong, not slow. */
export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

const CHECK = `
let sqlite;
try {
  sqlite = open(workerData.file);
} catch (error) {
  result = { problems: [(error && error.code || 'error') + ': the file could not be read'] };
}
if (sqlite) {
  try {
    result = { problems: quickCheck(sqlite) };
  } finally {
    sqlite.close();
  }
}
`;

/**
 * SQLite's `quick_check` of the desk's database on a worker thread, with its own read-only
 * connection and the key, while the desk works on its own connection (WAL: the check reads a
 * consistent snapshot). Bounded: past `timeoutMs` the worker is ended.
 */
export async function checkDatabaseOnWorker(input: { file: string; key: Buffer; timeoutMs?: number }): Promise<BackgroundCheck> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  try {
    const { problems } = await runOnSqliteWorker<{ problems: string[] }>({ body: CHECK, key: input.key, data: { file: input.file }, timeoutMs, what: "The database's check" });
    return problems.length === 0 ? { state: 'ok' } : { state: 'damaged', problems };
  } catch (error) {
    if (error instanceof SqliteWorkerTimeout) return { state: 'timed_out', ms: timeoutMs };
    return { state: 'failed', error: error instanceof Error ? error.name : 'unknown' };
  }
}
