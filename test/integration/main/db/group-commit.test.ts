import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGroupCommit, groupCommitFor } from '@src/main/db/group-commit';
import { openDatabase, type OpenedDatabase } from '@src/main/db/open-database';
import { makeTempDir } from '@test/support/temp-dir';

const opened: { db: OpenedDatabase; cleanup(): void }[] = [];
function open(): OpenedDatabase & { file: string } {
  const temp = makeTempDir();
  const file = path.join(temp.dir, 'db.sqlite');
  const db = openDatabase({ file });
  // Keep every frame in the WAL, so its growth counts what each commit wrote.
  db.sqlite.pragma('wal_autocheckpoint = 0');
  opened.push({ db, cleanup: temp.cleanup });
  return Object.assign(db, { file });
}
afterEach(() => {
  for (const { db, cleanup } of opened.splice(0)) {
    db.close();
    cleanup();
  }
});

const insertPatient = (db: OpenedDatabase, id: string) => () =>
  db.sqlite.prepare("INSERT INTO patients (id, first_name, last_name, date_of_birth, created_at) VALUES (?, 'A', 'B', '1980-01-01', 'x')").run(id).changes;
const patientIds = (db: OpenedDatabase) => (db.sqlite.prepare('SELECT id FROM patients ORDER BY id').all() as { id: string }[]).map((r) => r.id);
const walBytes = (file: string) => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);

describe('group commit', () => {
  it('commits writes that arrive together once, and answers each only after that commit', async () => {
    const grouped = open();
    const group = createGroupCommit(grouped.db);
    const before = walBytes(grouped.file);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => group.run(insertPatient(grouped, `pat_${String(i).padStart(2, '0')}`))));
    expect(answers).toEqual(Array(50).fill(1));
    const groupedGrowth = walBytes(grouped.file) - before;

    const oneByOne = open();
    const single = createGroupCommit(oneByOne.db);
    const start = walBytes(oneByOne.file);
    for (let i = 0; i < 50; i++) await single.run(insertPatient(oneByOne, `pat_${String(i).padStart(2, '0')}`));
    const separateGrowth = walBytes(oneByOne.file) - start;

    expect(patientIds(grouped)).toHaveLength(50);
    expect(patientIds(oneByOne)).toHaveLength(50);
    // Fifty commits write fifty sets of frames; one commit writes one.
    expect(groupedGrowth * 10).toBeLessThan(separateGrowth);
  });

  it('a write that throws undoes only itself: the others commit and are answered', async () => {
    const db = open();
    const group = createGroupCommit(db.db);
    const results = await Promise.allSettled([
      group.run(insertPatient(db, 'pat_a')),
      group.run(() => {
        insertPatient(db, 'pat_b')();
        throw new Error('refused after writing');
      }),
      group.run(insertPatient(db, 'pat_a')),
      group.run(insertPatient(db, 'pat_c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/refused after writing/);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(patientIds(db)).toEqual(['pat_a', 'pat_c']);
  });

  it('when the COMMIT itself fails, every write of the group is refused and nothing is stored', async () => {
    const db = open();
    const group = createGroupCommit(db.db);
    const results = await Promise.allSettled([
      group.run(insertPatient(db, 'pat_a')),
      // A deferred foreign key is only checked at COMMIT: the whole group's commit fails.
      group.run(() => {
        db.sqlite.pragma('defer_foreign_keys = ON');
        db.sqlite.prepare("INSERT INTO insurance_cards (id, patient_id, source, insurance_carrier_ids, created_at) VALUES ('ic_1', 'pat_missing', 'api', '[]', 'x')").run();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(patientIds(db)).toEqual([]);
    // The connection is usable afterwards.
    await expect(group.run(insertPatient(db, 'pat_z'))).resolves.toBe(1);
  });

  it('lets a lone write wait for the writers seen together lately, so a straggler does not pay a COMMIT alone', async () => {
    const db = open();
    const group = createGroupCommit(db.db);
    // Four writers arrive together once: the committer now expects four.
    await Promise.all(['pat_1', 'pat_2', 'pat_3', 'pat_4'].map((id) => group.run(insertPatient(db, id))));
    // One arrives; the other three a turn of the event loop later, as a client's next requests do.
    const first = group.run(insertPatient(db, 'pat_a')).then(() => patientIds(db));
    await new Promise(setImmediate);
    const rest = ['pat_b', 'pat_c', 'pat_d'].map((id) => group.run(insertPatient(db, id)));
    // Answered after the one COMMIT that made all four durable, not after one of its own.
    expect(await first).toEqual(['pat_1', 'pat_2', 'pat_3', 'pat_4', 'pat_a', 'pat_b', 'pat_c', 'pat_d']);
    await Promise.all(rest);
    // When fewer come than waited for, the wait runs out and the write still commits.
    await expect(group.run(insertPatient(db, 'pat_e'))).resolves.toBe(1);
    await expect(group.run(insertPatient(db, 'pat_f'))).resolves.toBe(1);
  });

  it('waits for the rest of a group on one timer, not turn after turn, and is woken by the arrival that completes it', async () => {
    const db = open();
    // A clock a millisecond on at every reading: the COMMIT takes one, and the next write comes
    // within two of it, as it does at a busy desk. On the real clock, a loaded machine (a CI run)
    // could take longer between the commit and the next write than two COMMITs, and the group
    // rightly stopped waiting for writers who seemed to have gone.
    let clock = 0;
    const group = createGroupCommit(db.db, { now: () => ++clock });
    await Promise.all(['pat_1', 'pat_2', 'pat_3'].map((id) => group.run(insertPatient(db, id))));
    const immediates = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Immediate').length;
    const idle = immediates();
    const first = group.run(insertPatient(db, 'pat_a')).then(() => patientIds(db));
    await new Promise(setImmediate);
    // The short group is waiting: no turn of the event loop is queued to look again.
    expect(immediates()).toBe(idle);
    const rest = ['pat_b', 'pat_c'].map((id) => group.run(insertPatient(db, id)));
    expect(await first).toEqual(['pat_1', 'pat_2', 'pat_3', 'pat_a', 'pat_b', 'pat_c']);
    await Promise.all(rest);
  });

  it('refuses a group waiting for the rest as soon as writes are refused, and stores none of it', async () => {
    const db = open();
    const group = createGroupCommit(db.db);
    await Promise.all(['pat_1', 'pat_2', 'pat_3', 'pat_4'].map((id) => group.run(insertPatient(db, id))));
    const waiting = group.run(insertPatient(db, 'pat_a'));
    await new Promise(setImmediate);
    group.refuseWrites(new Error('damaged'));
    await expect(waiting).rejects.toThrow('damaged');
    expect(patientIds(db)).not.toContain('pat_a');
  });

  it('commits a lone write after a quiet spell in the next turn: it waits for no writers who have gone', async () => {
    const db = open();
    const group = createGroupCommit(db.db);
    // Eight writers together, twice: the committer expects eight and knows what a COMMIT takes.
    let started = performance.now();
    for (const round of ['a', 'b']) await Promise.all(Array.from({ length: 8 }, (_, i) => group.run(insertPatient(db, `pat_${round}${i}`))));
    const burstMs = performance.now() - started;
    // Quiet for far longer than those commits took: nobody is mid-cycle any more.
    await new Promise((resolve) => setTimeout(resolve, Math.max(50, 10 * burstMs)));
    let turns = 0;
    let answered = false;
    started = performance.now();
    const lone = group.run(insertPatient(db, 'pat_lone')).then(() => (answered = true));
    // Turns of the event loop until the lone write is answered: it is committed in the first.
    while (!answered) {
      await new Promise(setImmediate);
      turns += 1;
    }
    await lone;
    expect(turns).toBeLessThanOrEqual(2);
    expect(patientIds(db)).toContain('pat_lone');
  });

  it('builds no transaction for each group or write: one per connection, handed each piece of work', async () => {
    const db = open();
    const group = createGroupCommit(db.db);
    await group.run(insertPatient(db, 'pat_first'));
    let built = 0;
    const { transaction } = db.sqlite;
    // Counted on the connection itself (better-sqlite3's method, not ours).
    Object.assign(db.sqlite, { transaction: (...args: Parameters<typeof transaction>) => (built++, transaction.apply(db.sqlite, args)) });
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 8 }, (_, i) => group.run(insertPatient(db, `pat_${round}${i}`))));
    expect(built).toBe(0);
    expect(patientIds(db)).toHaveLength(25);
  });

  it('is one committer per connection, shared by everyone who asks', () => {
    const db = open();
    expect(groupCommitFor(db.db)).toBe(groupCommitFor(db.db));
  });
});

describe('group commit when SQLite rolls the whole transaction back', () => {
  it('answers every write as its storage says: none is refused yet stored, the writes after the culprit run again', async () => {
    const db = open();
    const group = createGroupCommit(db.db);
    // RAISE(ROLLBACK) ends the whole transaction, not the savepoint, as SQLITE_FULL or an
    // I/O error may: the writes before it are undone, and nothing is open for those after.
    db.sqlite.exec("CREATE TEMP TABLE boom (x); CREATE TEMP TRIGGER boom_all BEFORE INSERT ON boom BEGIN SELECT RAISE(ROLLBACK, 'rolled back'); END;");
    const results = await Promise.allSettled([
      group.run(insertPatient(db, 'pat_a')),
      group.run(() => db.sqlite.prepare('INSERT INTO boom VALUES (1)').run()),
      group.run(insertPatient(db, 'pat_c')),
      group.run(insertPatient(db, 'pat_d')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/rolled back/);
    expect(patientIds(db)).toEqual(['pat_c', 'pat_d']);
    expect(db.sqlite.inTransaction).toBe(false);
    await expect(group.run(insertPatient(db, 'pat_z'))).resolves.toBe(1);
  });
});
