import type { SqliteHandle } from './open-database';

/** Rows per table: what a backup's manifest records and a restore checks. Self-contained: it also runs on the backup's worker thread. */
export function tableCounts(sqlite: SqliteHandle): Record<string, number> {
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = (sqlite.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
  return counts;
}
