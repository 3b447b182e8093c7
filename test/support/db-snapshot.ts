import type Database from 'better-sqlite3';
import fs from 'node:fs';

/**
 * Tables a host's background components write on their own timers, whatever a request does:
 * the pull side's cursor and "last heard" (its first pull may land in the middle of a test),
 * and the ids the sync worker is given by the service for records it sends meanwhile.
 */
const BACKGROUND_TABLES = new Set(['pull_state', 'remote_ids']);

/**
 * Row counts of every table, and the files in `filesDir`: equal snapshots before and after
 * a refused request mean nothing was written.
 */
export function snapshotDatabase(sqlite: Database.Database, filesDir?: string): Record<string, number | string[]> {
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'")
    .all() as { name: string }[];
  const counts: Record<string, number | string[]> = {};
  for (const { name } of tables) {
    if (BACKGROUND_TABLES.has(name)) continue;
    counts[name] = (sqlite.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
  }
  if (filesDir) counts.files = fs.existsSync(filesDir) ? fs.readdirSync(filesDir).sort() : [];
  return counts;
}
