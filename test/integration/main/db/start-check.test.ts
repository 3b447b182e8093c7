import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, DATABASE_DAMAGED_MESSAGE, hostPaths, type Host, type HostOptions } from '@src/main/host/create-host';
import { damageMarkerOf } from '@src/main/db/start-check';
import { isServiceError } from '@src/shared/service-error';
import { recordsWithoutRow } from '@src/main/db/start-check';
import { makeTempDir } from '@test/support/temp-dir';
import { deskWith as deskOf, flipByteInAPage, person } from '@test/support/storage/damaged-desk';

let temp: { dir: string; cleanup(): void } | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  temp?.cleanup();
  temp = undefined;
});

function start(dataDir: string, options: Partial<HostOptions> = {}): Host {
  host = createHost({ dataDir, localApi: false, hotFolder: false, ...options });
  return host;
}

/** Started as the desk starts: the check runs after, on its worker. */
async function started(dataDir: string, options: Partial<HostOptions> = {}): Promise<Host> {
  const h = start(dataDir, options);
  await h.start();
  return h;
}

async function stop(): Promise<void> {
  await host?.close();
  host = undefined;
}

/** A desk with `n` patients, all in the main file (checkpointed), their outbox entries unsent. */
async function deskWith(n: number): Promise<{ dataDir: string; ids: string[] }> {
  temp = makeTempDir('coverdesk-damage-');
  return { dataDir: temp.dir, ids: await deskOf(temp.dir, n) };
}

const patientIds = (h: Host) => (h.database.sqlite.prepare('SELECT id FROM patients ORDER BY id').all() as { id: string }[]).map((r) => r.id);
const unsentEntries = (h: Host) => (h.database.sqlite.prepare("SELECT record_id FROM outbox WHERE state != 'synced'").all() as { record_id: string }[]).map((r) => r.record_id);
const queuedOrSent = (h: Host) => (h.database.sqlite.prepare("SELECT record_id FROM outbox WHERE collection = 'patients'").all() as { record_id: string }[]).map((r) => r.record_id);
const unsent = (h: Host) => (h.database.sqlite.prepare("SELECT record_id FROM outbox WHERE collection = 'patients' AND state != 'synced'").all() as { record_id: string }[]).map((r) => r.record_id).sort();

describe('the database check at start', () => {
  it('finds a flipped byte in a page after the desk is up, refuses creates until the restart, which sets the file aside untouched and queues again what it reads', async () => {
    const { dataDir, ids } = await deskWith(400);
    const file = hostPaths(dataDir).database;
    flipByteInAPage(dataDir);

    // The desk is up and answers before the check does: the check runs on its own thread.
    const restarts: string[] = [];
    const first = await started(dataDir, { onRestartNeeded: (reason) => restarts.push(reason) });
    expect(first.damaged).toBeNull();
    expect((await first.bridge['sync.status']({})).storage).toBe('ok');
    expect(await first.checked).toMatchObject({ state: 'damaged' });
    expect(restarts).toEqual(['damaged']);
    // From then on nothing is written to the damaged file: a create is refused with the sentence, nothing stored.
    const before = patientIds(first).length;
    const refused = await first.bridge['patients.create'](person(999)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isServiceError(refused)).toBe(true);
    expect((refused as Error).message).toBe(DATABASE_DAMAGED_MESSAGE);
    expect(patientIds(first)).toHaveLength(before);
    expect(fs.existsSync(damageMarkerOf(file))).toBe(true);
    await stop();
    const damagedBytes = fs.readFileSync(file);

    const second = start(dataDir);
    expect(second.damaged).not.toBeNull();
    const report = second.damaged!;
    // Kept beside, byte for byte; never deleted.
    expect(path.dirname(report.keptAs)).toBe(dataDir);
    expect(path.basename(report.keptAs)).toMatch(/^coverdesk\.sqlite\.damaged-\d{4}-\d{2}-\d{2}T/);
    expect(fs.readFileSync(report.keptAs).equals(damagedBytes)).toBe(true);
    expect(report.message).toContain('was set aside: nothing more was written to it');
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
    await second.start();
    expect(await second.checked).toEqual({ state: 'ok' });
    await stop();
    const third = await started(dataDir);
    expect(third.damaged).toBeNull();
    expect(await third.checked).toEqual({ state: 'ok' });
    expect(await third.bridge['storage.damage']({})).toBeNull();
  });

  it('when the damage cannot be noted for the next start (no room for the note), writes stay refused and no restart is asked for, rather than restarting into the same damage', async () => {
    const { dataDir } = await deskWith(400);
    flipByteInAPage(dataDir);
    // Where the note is written first is taken by a folder: writing it fails, as a full disk would make it.
    fs.mkdirSync(`${damageMarkerOf(hostPaths(dataDir).database)}.tmp`);
    const restarts: string[] = [];
    const h = await started(dataDir, { onRestartNeeded: (reason) => restarts.push(reason) });
    expect(await h.checked).toMatchObject({ state: 'damaged' });
    expect(restarts).toEqual([]);
    await expect(h.bridge['patients.create'](person(999))).rejects.toMatchObject({ message: DATABASE_DAMAGED_MESSAGE });
  });

  it('does not hold the start: the desk answers while the check is still reading, and a check past its time limit is ended, the desk left as it is', async () => {
    const { dataDir } = await deskWith(300);
    const h = await started(dataDir, { startCheck: { timeoutMs: 1 } });
    // Answered before the worker has even opened the file.
    const created = await h.bridge['patients.create'](person(1000));
    expect(created.id).toBeTruthy();
    expect(await h.checked).toEqual({ state: 'timed_out', ms: 1 });
    expect((await h.bridge['patients.create'](person(1001))).id).toBeTruthy();
    expect(fs.existsSync(damageMarkerOf(hostPaths(dataDir).database))).toBe(false);
  });

  it('a desk starting for a person waits before its check (its first screen first), then finds damage as at once', async () => {
    const { dataDir } = await deskWith(400);
    flipByteInAPage(dataDir);
    const h = await started(dataDir, { startCheck: { delayMs: 300 } });
    // Still waiting its turn: nothing read yet, so nothing answered.
    const early = await Promise.race([h.checked, new Promise((resolve) => setTimeout(() => resolve('waiting'), 100))]);
    expect(early).toBe('waiting');
    expect(await h.checked).toMatchObject({ state: 'damaged' });
  });

  it('closed before its check’s turn, the desk does not start it (the next start checks the file) and closes at once', async () => {
    const { dataDir } = await deskWith(50);
    const h = await started(dataDir, { startCheck: { delayMs: 60_000 } });
    await stop();
    expect(await h.checked).toBeNull();
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

    const again = await started(dataDir);
    expect(again.damaged).toBeNull();
    expect(await again.checked).toEqual({ state: 'ok' });
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

    const again = await started(dataDir);
    expect(again.damaged).toBeNull();
    expect(await again.checked).toEqual({ state: 'ok' });
    expect(patientIds(again)).toEqual(expect.arrayContaining(ids));
    // Every record still has its outbox entry. The desk's sync runs against the embedded sandbox
    // from start, so some may already be synced by now: sent, not lost.
    expect(queuedOrSent(again)).toEqual(expect.arrayContaining(ids));
  });
});
