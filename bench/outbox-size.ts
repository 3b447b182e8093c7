import fs from 'node:fs';
import path from 'node:path';
import { createHost, hostPaths } from '@src/main/host/create-host';
import { pruneSyncedEntries, SYNCED_ENTRY_MAX_AGE_MS } from '@src/main/outbox/outbox-pruning';
import { makeTempDir } from '@test/support/temp-dir';
import type { Benchmark } from './harness';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.parse('2026-01-01T09:00:00.000Z');

/** A patient and its create request as the outbox stores them (names and ids of real length). */
function payloadOf(i: number): string {
  return JSON.stringify({
    first_name: `Firstname${i}`,
    last_name: `Lastname-Hyphenated${i}`,
    date_of_birth: '1980-01-01',
    member_id: `W${String(100000000 + i)}`,
    group_number: 'GRP-000123',
  });
}

/**
 * A desk that syncs `total` operations at `perDay` a day, with or without the hourly prune:
 * the records stay (they are the desk's data), the outbox keeps only its history. Answers
 * the database file's size in MB after a checkpoint, and how many entries are left.
 */
async function simulate(total: number, perDay: number, prune: boolean): Promise<{ mb: number; entries: number }> {
  const temp = makeTempDir('coverdesk-bench-outbox-');
  const dataDir = path.join(temp.dir, 'host');
  let now = START;
  const host = createHost({ dataDir, clock: { now: () => new Date(now) } });
  try {
    const sqlite = host.database.sqlite;
    sqlite.pragma('synchronous = OFF');
    const patient = sqlite.prepare('INSERT INTO patients (id, first_name, last_name, date_of_birth, remote_id, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const entry = sqlite.prepare("INSERT INTO outbox (id, collection, record_id, payload, depends_on, state, attempts, remote_id, created_at, updated_at) VALUES (?, 'patients', ?, ?, '[]', 'synced', 1, ?, ?, ?)");
    for (let done = 0; done < total; done += perDay) {
      const at = new Date(now).toISOString();
      sqlite.transaction(() => {
        for (let i = done; i < Math.min(total, done + perDay); i++) {
          const n = `${String(now).padStart(13, '0')}${String(i).padStart(13, '0')}`;
          patient.run(`pat_${n}`, `Firstname${i}`, `Lastname${i}`, '1980-01-01', `pat_remote${n}`, at);
          entry.run(`obx_${n}`, `pat_${n}`, payloadOf(i), `pat_remote${n}`, at, at);
        }
      })();
      now += DAY;
      if (prune) await pruneSyncedEntries({ db: host.database.db, clock: host.clock });
    }
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const entries = (sqlite.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
    const mb = fs.statSync(hostPaths(dataDir).database).size / 1e6;
    return { mb, entries };
  } finally {
    await host.close();
    temp.cleanup();
  }
}

/**
 * The outbox does not grow for ever: a desk that synced 100,000 operations (1,000 a day)
 * with pruning, against the same desk keeping every synced entry. Each ratio is how many
 * times larger the unpruned figure is.
 */
export const outboxSize: Benchmark = async ({ quick }) => {
  const total = quick ? 20_000 : 100_000;
  const perDay = 1_000;
  const pruned = await simulate(total, perDay, true);
  const kept = await simulate(total, perDay, false);
  const keptDays = SYNCED_ENTRY_MAX_AGE_MS / DAY;
  return [
    {
      name: `outbox_entries_after_${total}_synced`,
      value: pruned.entries,
      unit: 'entries',
      baseline: kept.entries,
      ratio: kept.entries / Math.max(1, pruned.entries),
      goal: `≤ ${keptDays} days of entries (${keptDays * perDay})`,
      met: pruned.entries <= keptDays * perDay,
    },
    {
      name: `database_size_after_${total}_synced`,
      value: pruned.mb,
      unit: 'MB',
      baseline: kept.mb,
      ratio: kept.mb / pruned.mb,
    },
  ];
};
