import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findMigrationsDir, MigrationFailedError, NoRoomToUpgradeError, openDatabase, preMigrationCopyOf } from '@src/main/db/open-database';
import { newDatabaseKey } from '@src/main/db/database-key';
import { makeTempDir } from '@test/support/temp-dir';

/**
 * Upgrades (issue 29, item 5): before a run with pending migrations the closed file is
 * copied; a migration that fails puts that copy back and says so with the version names.
 */
const temps: { cleanup(): void }[] = [];
afterEach(() => temps.splice(0).forEach((t) => t.cleanup()));

type Journal = { entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[] };

/** A copy of drizzle/ as an older build had it (the last `drop` migrations missing), or with `extra` appended. */
function migrationsDir(options: { drop?: number; extra?: { tag: string; sql: string } }): { dir: string; tags: string[] } {
  const temp = makeTempDir('coverdesk-migrations-');
  temps.push(temp);
  const dir = path.join(temp.dir, 'drizzle');
  fs.cpSync(findMigrationsDir(), dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as Journal;
  journal.entries = journal.entries.slice(0, journal.entries.length - (options.drop ?? 0));
  if (options.extra) {
    const last = journal.entries.at(-1)!;
    journal.entries.push({ idx: last.idx + 1, version: last.version, when: last.when + 1000, tag: options.extra.tag, breakpoints: true });
    fs.writeFileSync(path.join(dir, `${options.extra.tag}.sql`), options.extra.sql);
  }
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return { dir, tags: journal.entries.map((e) => e.tag) };
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A desk's file at the schema before the newest migration, holding one setting: where it is, its key and its hash. */
function olderDesk() {
  const temp = makeTempDir('coverdesk-upgrade-');
  temps.push(temp);
  const file = path.join(temp.dir, 'coverdesk.sqlite');
  const key = newDatabaseKey();
  const older = migrationsDir({ drop: 1 });
  const first = openDatabase({ file, key, migrationsDir: older.dir });
  first.sqlite.prepare("INSERT INTO settings (key, value) VALUES ('kept', '\"yes\"')").run();
  first.close();
  return { file, key, older, before: sha(file) };
}

describe('a backup before every migration run', () => {
  it('a failing migration puts the file back as it was, and says so naming the version it had and the one it was going to', () => {
    const { file, key, older, before } = olderDesk();

    const broken = migrationsDir({ extra: { tag: '0099_bad_upgrade', sql: 'CREATE TABLE upgrade_half (x);\n--> statement-breakpoint\nINSERT INTO no_such_table VALUES (1);' } });
    let thrown: unknown;
    try {
      openDatabase({ file, key, migrationsDir: broken.dir });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MigrationFailedError);
    expect((thrown as Error).message).toContain(`from schema ${older.tags.at(-1)} to 0099_bad_upgrade failed, so it was put back exactly as it was before the upgrade`);
    expect(sha(file)).toBe(before);
    expect(fs.existsSync(preMigrationCopyOf(file))).toBe(true);

    // The build that knows only good migrations opens it, upgraded, with what it held.
    const again = openDatabase({ file, key });
    expect(again.sqlite.prepare("SELECT value FROM settings WHERE key = 'kept'").get()).toEqual({ value: '"yes"' });
    expect(again.sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = 'upgrade_half'").get()).toBeUndefined();
    again.close();
  });

  it('a disk that fills during a migration (SQLite\'s page limit): the file is put back as it was, and the refusal says to free space', () => {
    const { file, key, older, before } = olderDesk();
    // The limit at the file's size, then a migration that needs more pages: SQLITE_FULL mid-run, as a full disk gives.
    const growing = migrationsDir({
      extra: {
        tag: '0099_big_upgrade',
        sql: 'PRAGMA max_page_count = 1;\n--> statement-breakpoint\nCREATE TABLE upgrade_big AS WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000) SELECT n, randomblob(200) AS b FROM s;',
      },
    });
    let thrown: unknown;
    try {
      openDatabase({ file, key, migrationsDir: growing.dir });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MigrationFailedError);
    expect((thrown as Error).message).toContain('so it was put back exactly as it was before the upgrade');
    expect((thrown as Error).message).toContain('The disk is full: free some space on this computer, then open Coverdesk again to finish the upgrade.');
    expect(sha(file)).toBe(before);
    const again = openDatabase({ file, key, migrationsDir: older.dir });
    expect(again.sqlite.prepare("SELECT value FROM settings WHERE key = 'kept'").get()).toEqual({ value: '"yes"' });
    again.close();
  });

  it('a disk with no room for the copy taken before an upgrade: nothing migrated, the file as it was, no half copy left, the refusal says how much to free', () => {
    const temp = makeTempDir('coverdesk-upgrade-');
    temps.push(temp);
    const file = path.join(temp.dir, 'coverdesk.sqlite');
    const key = newDatabaseKey();
    const older = migrationsDir({ drop: 1 });
    openDatabase({ file, key, migrationsDir: older.dir }).close();
    const before = sha(file);
    // As a full disk does: part of the copy written, then ENOSPC.
    const full = (from: string, to: string) => {
      fs.writeFileSync(to, fs.readFileSync(from).subarray(0, 4096));
      throw Object.assign(new Error('ENOSPC: no space left on device, copyfile'), { code: 'ENOSPC' });
    };
    let thrown: unknown;
    try {
      openDatabase({ file, key, copyFile: full });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NoRoomToUpgradeError);
    expect((thrown as Error).message).toMatch(/^The disk is full: Coverdesk needs about \d+ MB free to upgrade its database \(coverdesk\.sqlite\).*Nothing was changed\. Free some space/);
    expect(sha(file)).toBe(before);
    expect(fs.readdirSync(temp.dir).filter((name) => name.includes('before-upgrade'))).toEqual([]);
    // With room again, the upgrade goes through.
    openDatabase({ file, key }).close();
    expect(fs.existsSync(preMigrationCopyOf(file))).toBe(true);
  });

  it('takes the copy only when migrations are pending, not at every start', () => {
    const temp = makeTempDir('coverdesk-upgrade-');
    temps.push(temp);
    const file = path.join(temp.dir, 'coverdesk.sqlite');
    const key = newDatabaseKey();
    openDatabase({ file, key }).close();
    expect(fs.existsSync(preMigrationCopyOf(file))).toBe(false);
    openDatabase({ file, key }).close();
    expect(fs.existsSync(preMigrationCopyOf(file))).toBe(false);
  });
});
