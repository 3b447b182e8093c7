import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, hostPaths, type Host } from '@src/main/host/create-host';
import { recordsWithoutRow } from '@src/main/db/start-check';
import { makeTempDir } from '@test/support/temp-dir';

const PAGE = 4096;
let temp: { dir: string; cleanup(): void } | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  temp?.cleanup();
  temp = undefined;
});

function start(dataDir: string): Host {
  host = createHost({ dataDir, localApi: false, hotFolder: false });
  return host;
}

async function stop(): Promise<void> {
  await host?.close();
  host = undefined;
}

const person = (n: number) => ({ first_name: `Rec${n}`, last_name: 'Covery', date_of_birth: '1970-02-03' });

/** A desk with `n` patients, all in the main file (checkpointed), their outbox entries unsent. */
async function deskWith(n: number): Promise<{ dataDir: string; ids: string[] }> {
  temp = makeTempDir('coverdesk-damage-');
  const first = start(temp.dir);
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) ids.push((await first.bridge['patients.create'](person(i))).id);
  first.database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  await stop();
  return { dataDir: temp.dir, ids };
}

const patientIds = (h: Host) => (h.database.sqlite.prepare('SELECT id FROM patients ORDER BY id').all() as { id: string }[]).map((r) => r.id);
const unsentEntries = (h: Host) => (h.database.sqlite.prepare("SELECT record_id FROM outbox WHERE state != 'synced'").all() as { record_id: string }[]).map((r) => r.record_id);
const unsent = (h: Host) => (h.database.sqlite.prepare("SELECT record_id FROM outbox WHERE collection = 'patients' AND state != 'synced'").all() as { record_id: string }[]).map((r) => r.record_id).sort();

describe('the database check at start', () => {
  it('sets a file with a flipped byte aside untouched, starts on a fresh one, and queues again the records it can read', async () => {
    const { dataDir, ids } = await deskWith(400);
    const file = hostPaths(dataDir).database;
    const bytes = fs.readFileSync(file);
    const pages = bytes.length / PAGE;
    expect(pages).toBeGreaterThan(20);
    // One byte in the middle of a page near the end (a page of records, not the header).
    const at = (pages - 3) * PAGE + 1000;
    bytes[at] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const damagedBytes = fs.readFileSync(file);

    const second = start(dataDir);
    expect(second.damaged).not.toBeNull();
    const report = second.damaged!;
    // Kept beside, byte for byte; never deleted.
    expect(path.dirname(report.keptAs)).toBe(dataDir);
    expect(path.basename(report.keptAs)).toMatch(/^coverdesk\.sqlite\.damaged-\d{4}-\d{2}-\d{2}T/);
    expect(fs.readFileSync(report.keptAs).equals(damagedBytes)).toBe(true);
    expect(report.message).toContain('was not opened for work');
    expect(report.message).toContain(path.basename(report.keptAs));
    // What could be read came back and is queued to send; what could not is counted, by table.
    const recovered = patientIds(second);
    expect(recovered.length).toBeGreaterThan(ids.length / 2);
    expect(recovered.every((id) => ids.includes(id))).toBe(true);
    // Every record read back is on its way upstream again, its entry read back or made anew.
    expect(unsent(second)).toEqual([...recovered].sort());
    expect(report.recoveredEntries).toBe(recovered.length);
    // The damage is reported by table (and outbox rows by number), never silently.
    expect(Object.values(report.unreadableRows).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // The desk is told through the bridge, ids not recovered listed (records whose entry came back without them).
    const shown = await second.bridge['storage.damage']({});
    expect(shown).toMatchObject({ message: report.message, kept_as: path.basename(report.keptAs), recovered_entries: recovered.length });
    const withoutRow = ids.filter((id) => !recovered.includes(id) && unsentEntries(second).includes(id));
    expect(shown!.missing_records).toEqual(withoutRow.sort());
    // The fresh file passes the check: the next start is an ordinary one.
    await stop();
    const third = start(dataDir);
    expect(third.damaged).toBeNull();
    expect(await third.bridge['storage.damage']({})).toBeNull();
  });

  it('names by id the records whose outbox entry came back without their row', async () => {
    const { dataDir, ids } = await deskWith(3);
    const h = start(dataDir);
    expect(recordsWithoutRow(h.database.sqlite)).toEqual([]);
    // What a damaged patients page leaves: the entry read back, the row not.
    h.database.sqlite.pragma('foreign_keys = OFF');
    h.database.sqlite.prepare('DELETE FROM patients WHERE id = ?').run(ids[1]);
    expect(recordsWithoutRow(h.database.sqlite)).toEqual([ids[1]]);
  });

  it('opens a file whose WAL was cut short, keeping every record committed to the main file', async () => {
    const { dataDir, ids } = await deskWith(50);
    const file = hostPaths(dataDir).database;
    // Later writes, in the WAL only, copied with the file while open (as a backup tool would), cut mid-frame.
    const h = start(dataDir);
    for (let i = 50; i < 60; i += 1) await h.bridge['patients.create'](person(i));
    const main = fs.readFileSync(file);
    const wal = fs.readFileSync(`${file}-wal`);
    await stop();
    fs.writeFileSync(file, main);
    fs.writeFileSync(`${file}-wal`, wal.subarray(0, Math.floor(wal.length / 2) + 100));

    const again = start(dataDir);
    expect(again.damaged).toBeNull();
    expect(patientIds(again)).toEqual(expect.arrayContaining(ids));
    expect(fs.readdirSync(dataDir).filter((name) => name.includes('damaged'))).toEqual([]);
  });

  it('opens a file whose WAL is missing, keeping every record committed to the main file', async () => {
    const { dataDir, ids } = await deskWith(50);
    const file = hostPaths(dataDir).database;
    const h = start(dataDir);
    for (let i = 50; i < 60; i += 1) await h.bridge['patients.create'](person(i));
    const main = fs.readFileSync(file);
    await stop();
    fs.writeFileSync(file, main);
    fs.rmSync(`${file}-wal`, { force: true });
    fs.rmSync(`${file}-shm`, { force: true });

    const again = start(dataDir);
    expect(again.damaged).toBeNull();
    expect(patientIds(again)).toEqual(expect.arrayContaining(ids));
    expect(unsent(again)).toEqual(expect.arrayContaining(ids));
  });
});
