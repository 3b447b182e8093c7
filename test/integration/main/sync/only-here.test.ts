import { describe, expect, it } from 'vitest';
import { quitWarning } from '@src/shared/bridge/only-here';
import { closeAfterEach, createVisit, freePort, startSyncHost, startUpstream, waitFor, waitForDrained, type SyncHostFixture } from '@test/support/sync/sync-harness';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { onlyHere } from '@src/main/sync/only-here';
import { SyncState } from '@src/shared/contract';
import { openDigitalCardDb } from '@test/support/digital-card-db';

/** What exists only here (issue 29, item 6): the Sync screen's count and since when, and the quit warning. */
let fx: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(
  () => fx,
  () => upstream,
);

describe('records that exist only on this desk', () => {
  it('counts the records the service has not taken and the oldest one’s time; offline, quitting is warned; once sent, none', async () => {
    const port = await freePort();
    fx = await startSyncHost(`http://127.0.0.1:${port}`);
    expect(await fx.host.bridge['sync.onlyHere']({})).toEqual({ records: 0, since: null });
    const first = await createVisit(fx.host, 1);
    const second = await createVisit(fx.host, 2);
    const only = await fx.host.bridge['sync.onlyHere']({});
    // Per visit: the patient, two photos, the card and the check; since the first visit's
    // first record (its outbox entry is written in the same transaction, the clock read a
    // moment later: the same millisecond or the next).
    expect(only.records).toBe(10);
    const since = Date.parse(only.since ?? '');
    expect(since).toBeGreaterThanOrEqual(Date.parse(first.patient.created_at));
    expect(since).toBeLessThanOrEqual(Date.parse(second.patient.created_at));
    const status = await waitFor('the desk to find the service unreachable', async () => {
      const s = await fx!.status();
      return s.online === false ? s : undefined;
    });
    expect(quitWarning(status, only, (iso) => iso)).toBe(
      `10 records exist only on this computer (waiting since ${only.since}): the service cannot be reached, so they have not been sent. They are kept and sent once Coverdesk is open and online again; if this computer is to be replaced, back it up first (Settings → Backups).`,
    );
    expect(quitWarning({ online: true }, only, (iso) => iso)).toBeNull();

    upstream = await startUpstream(port, { delayMs: 20 });
    await waitForDrained(fx);
    expect(await fx.host.bridge['sync.onlyHere']({})).toEqual({ records: 0, since: null });
    expect(quitWarning({ online: false }, { records: 0, since: null }, (iso) => iso)).toBeNull();
  }, 60_000);
});

describe('what only this desk holds, read from the outbox', () => {
  it('counts an entry in every state but synced, once a record; since its oldest waiting entry', () => {
    const db = openDigitalCardDb();
    try {
      const insert = db.opened.sqlite.prepare(
        "INSERT INTO outbox (id, collection, record_id, payload, depends_on, state, created_at, updated_at) VALUES (?, 'patients', ?, '{}', '[]', ?, ?, ?)",
      );
      const states = SyncState.options;
      states.forEach((state, i) => insert.run(`o${i}`, `r${i}`, state, `2026-01-0${i + 1}T00:00:00.000Z`, '2026-02-01T00:00:00.000Z'));
      // A second entry of a waiting record counts the record once.
      insert.run('o-again', 'r0', 'queued', '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z');
      const waiting = states.filter((state) => state !== 'synced');
      const oldest = states.findIndex((state) => state !== 'synced');
      expect(onlyHere(db.opened.db)).toEqual({ records: waiting.length, since: `2026-01-0${oldest + 1}T00:00:00.000Z` });
      expect(waiting).toHaveLength(5);
      db.opened.sqlite.prepare("UPDATE outbox SET state = 'synced'").run();
      expect(onlyHere(db.opened.db)).toEqual({ records: 0, since: null });
    } finally {
      db.close();
    }
  });
});
