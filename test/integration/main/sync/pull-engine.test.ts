import { afterEach, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { audit_log, checks, insurance_cards, outbox, patients, pull_set_aside } from '@src/main/db/schema';
import { createHttpV1Client } from '@src/main/http/v1-client';
import { expireCursors } from '@src/main/sandbox/changes-feed';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { createPullEngine, type PullFeed } from '@src/main/sync/pull-engine';
import { ServiceError } from '@src/shared/service-error';
import type { ReceivedChangesPage } from '@src/shared/contract';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { startTestSandbox, type SandboxFixture } from '@test/support/sandbox-fixture';
import { makePng } from '@test/support/images';
import { reading, statementsRunAsync } from '@test/support/statement-counter';

/** The pull engine against the real sandbox over loopback, into a real host database. */
describe('pull engine', () => {
  let desk: HostFixture | undefined;
  let upstream: SandboxFixture | undefined;
  afterEach(async () => {
    await desk?.cleanup();
    await upstream?.close();
    desk = upstream = undefined;
  });

  async function setup() {
    upstream = await startTestSandbox();
    desk = startTestHost({ localApi: false, hotFolder: false });
    const client = createHttpV1Client({ baseUrl: upstream.sandbox.url, apiKey: upstream.sandbox.apiKey });
    const feed: PullFeed = { key: upstream.sandbox.url, changes: (params) => client.changes!(params) };
    const db = desk.host.database.db;
    const engine = createPullEngine({ db, clock: desk.host.clock, ids: desk.host.ids, audit: desk.host.audit });
    return { engine, feed, db, service: upstream.sandbox.service };
  }

  async function pullAll(engine: ReturnType<typeof createPullEngine>, feed: PullFeed, limit = 3) {
    for (let i = 0; i < 1000; i++) {
      const outcome = await engine.pullPage(feed, limit);
      if (outcome.kind === 'applied' && (!outcome.hasMore || outcome.waiting)) return outcome;
    }
    throw new Error('the feed never ended');
  }

  async function seedPractice(service: SandboxFixture['sandbox']['service'], n: number) {
    const made = [];
    for (let i = 0; i < n; i++) {
      const patient = await service.create('patients', { first_name: 'Remote', last_name: `Person${i}`, date_of_birth: '1970-03-04' }, { source: 'api' });
      const card = await service.create('insurance_cards', { patient_id: patient.id, member_id: `XGH${i}` }, { source: 'api' });
      const check = await service.create(
        'electronic_eligibility_checks',
        { insurance_card_id: card.id, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id, service_type: 'health_benefit_plan_coverage' },
        { source: 'api' },
      );
      made.push({ patient, card, check });
    }
    return made;
  }

  it('bootstraps every record once: local ids, upstream ids kept, references mapped, audited as received', async () => {
    const { engine, feed, db, service } = await setup();
    const made = await seedPractice(service, 4);
    const outcome = await pullAll(engine, feed);
    expect(outcome).toMatchObject({ kind: 'applied', hasMore: false, waiting: false });
    const local = await desk!.host.service.list('patients', { limit: 100 });
    expect(local.data).toHaveLength(4);
    for (const { patient, card, check } of made) {
      const [pid] = engine.localIds('patients', [patient.id]);
      expect(pid).toMatch(/^pat_/);
      expect(pid).not.toBe(patient.id);
      const [cid] = engine.localIds('insurance_cards', [card.id]);
      const localCard = await desk!.host.service.get('insurance_cards', cid);
      expect(localCard).toMatchObject({ patient_id: pid, member_id: card.member_id, source: 'api' });
      expect(localCard.sync).toEqual({ state: 'synced', remote_id: card.id, error: null });
      const [kid] = engine.localIds('electronic_eligibility_checks', [check.id]);
      expect((await desk!.host.service.get('electronic_eligibility_checks', kid)).insurance_card_id).toBe(cid);
    }
    // Nothing goes back upstream: they came from there.
    expect(db.select().from(outbox).all()).toEqual([]);
    const actions = db.select({ action: audit_log.action }).from(audit_log).all().map((r) => r.action);
    expect(actions.filter((a) => a === 'receive')).toHaveLength(12);
    expect(actions).not.toContain('view');
    expect(engine.state(feed.key)).toMatchObject({ received: 12, behind: false });
  });

  it('looks up the upstream ids a page names together, not record by record, and maps a card to its patient in the same page', async () => {
    const { engine, feed, db, service } = await setup();
    const made = await seedPractice(service, 15);
    const { result: outcome, sql } = await statementsRunAsync(db.$client, () => engine.pullPage(feed, 45));
    expect(outcome).toMatchObject({ kind: 'applied', applied: 45, hasMore: false });
    // Which local record an upstream id names (remote_ids, a table's remote_id, the outbox's
    // answered ids): a few statements for the whole page of 45 records and their 30 references.
    const lookups = sql.filter((text) => /^select/i.test(text.trim()) && /where[\s\S]*remote_id/i.test(text));
    expect(lookups.length).toBeLessThanOrEqual(6);
    for (const { patient, card, check } of made) {
      const [pid] = engine.localIds('patients', [patient.id]);
      const [cid] = engine.localIds('insurance_cards', [card.id]);
      const [kid] = engine.localIds('electronic_eligibility_checks', [check.id]);
      expect((await desk!.host.service.get('insurance_cards', cid)).patient_id).toBe(pid);
      expect((await desk!.host.service.get('electronic_eligibility_checks', kid)).insurance_card_id).toBe(cid);
    }
    // The page again: every id is known now, nothing is received twice. (A check the sandbox's
    // clearinghouse answered in between is news about a record the desk holds, and may apply.)
    const replay: PullFeed = { key: feed.key, changes: (params) => feed.changes({ ...params, after: undefined }) };
    expect(await engine.pullPage(replay, 45)).toMatchObject({ kind: 'applied' });
    expect(engine.state(feed.key).received).toBe(45);
    expect(db.select().from(patients).all()).toHaveLength(15);
    expect(db.select().from(insurance_cards).all()).toHaveLength(15);
    expect(db.select().from(checks).all()).toHaveLength(15);
  });

  it('audits a page\'s records one sealed entry each, naming every id, reading the chain\'s head once for the page; their upstream ids kept in one write', async () => {
    const { engine, feed, db, service } = await setup();
    await seedPractice(service, 10);
    const { result: outcome, sql } = await statementsRunAsync(db.$client, () => engine.pullPage(feed, 30));
    expect(outcome).toMatchObject({ kind: 'applied', applied: 30, hasMore: false });
    const received = db.select().from(audit_log).all().filter((entry) => entry.action === 'receive');
    const written = [...db.select({ id: patients.id }).from(patients).all().map((r) => r.id), ...engine.localIds('insurance_cards', (await service.list('insurance_cards', { limit: 100 })).data.map((c) => c.id))];
    expect(received.map((entry) => entry.record_id)).toEqual(expect.arrayContaining(written));
    expect(received).toHaveLength(30);
    expect(new Set(received.map((entry) => entry.record_id)).size).toBe(30);
    expect(received.every((entry) => entry.hash)).toBe(true);
    expect(reading(sql, 'sqlite_sequence')).toHaveLength(1);
    // The upstream ids the records came with are kept for the service in one write for the page, each with its record.
    expect(reading(sql, 'remote_ids').filter((text) => /^\s*insert/i.test(text))).toHaveLength(1);
    const kept = db.$client.prepare('SELECT record_id, remote_id FROM remote_ids WHERE upstream = ?').all(feed.key) as { record_id: string; remote_id: string }[];
    expect(kept).toHaveLength(30);
    const collectionOf = (id: string) => (id.startsWith('pat_') ? 'patients' : id.startsWith('ic_') ? 'insurance_cards' : 'electronic_eligibility_checks');
    for (const { record_id, remote_id } of kept) expect(engine.localIds(collectionOf(record_id), [remote_id])).toEqual([record_id]);
    expect(desk!.host.audit.verify()).toMatchObject({ intact: true });
    // An id that is not one is refused before anything of the call is written.
    const before = db.select().from(audit_log).all().length;
    expect(() => desk!.host.audit.appendAll('receive', [written[0], 'Jane Doe'])).toThrow(/not valid/);
    expect(db.select().from(audit_log).all()).toHaveLength(before);
  });

  it('is idempotent when the feed repeats or goes backwards, and starts again on 410 without duplicating', async () => {
    const { engine, feed, db, service } = await setup();
    await seedPractice(service, 3);
    await pullAll(engine, feed);
    const count = () => db.select().from(patients).all().length;
    expect(count()).toBe(3);
    // Backwards: the same pages again.
    const replay: PullFeed = { key: feed.key, changes: (params) => feed.changes({ ...params, after: undefined }) };
    await engine.pullPage(replay, 100);
    expect(count()).toBe(3);
    // The upstream drops old cursors: 410, the desk reads from the beginning, still once each.
    await seedPractice(service, 1);
    expireCursors(upstream!.sandbox.database.db);
    expect(await engine.pullPage(feed, 100)).toEqual({ kind: 'restarted' });
    await pullAll(engine, feed);
    expect(count()).toBe(4);
  });

  it('asks for the next page while it writes this one, once per cursor, and a failed early ask is the next call\'s error', async () => {
    const { feed, db, service } = await setup();
    await seedPractice(service, 3);
    const events: string[] = [];
    const logged: PullFeed = { key: feed.key, changes: (params) => (events.push(`ask ${params.after ?? 'start'}`), feed.changes(params)) };
    const engine = createPullEngine({ db, clock: desk!.host.clock, ids: desk!.host.ids, onRecordChanged: () => events.push('written') });
    await engine.pullPage(logged, 3);
    // The second page was asked for before the first page's records were written.
    expect(events.slice(0, 2)).toEqual(['ask start', expect.stringMatching(/^ask \d+/)]);
    expect(events.indexOf('written')).toBeGreaterThan(1);
    await pullAll(engine, logged);
    const asks = events.filter((e) => e.startsWith('ask'));
    expect(new Set(asks).size).toBe(asks.length);
    expect(db.select().from(patients).all()).toHaveLength(3);

    // The early ask fails: nothing is lost, the next call reports it and the one after asks again.
    const page = (n: number, more: boolean): ReceivedChangesPage => ({
      data: [{ collection: 'patients', cursor: String(n), record: { id: `pat_remote_${n}`, first_name: 'Early', last_name: `Ask${n}`, date_of_birth: '1980-01-01', created_at: '2026-11-20T10:00:00.000Z' } }],
      next_cursor: String(n),
      has_more: more,
    });
    let failNext = true;
    const flaky: PullFeed = {
      key: 'flaky',
      changes: async (params) => {
        if (!params.after) return page(1, true);
        if (failNext) {
          failNext = false;
          throw new ServiceError('upstream_unavailable', 'The service did not answer.');
        }
        return page(2, false);
      },
    };
    expect(await engine.pullPage(flaky)).toMatchObject({ kind: 'applied', applied: 1, hasMore: true });
    await expect(engine.pullPage(flaky)).rejects.toMatchObject({ code: 'upstream_unavailable' });
    expect(engine.state('flaky').cursor).toBe('1');
    expect(await engine.pullPage(flaky)).toMatchObject({ kind: 'applied', applied: 1, hasMore: false });
    expect(db.select().from(patients).all().map((p) => p.remote_id)).toEqual(expect.arrayContaining(['pat_remote_1', 'pat_remote_2']));
  });

  /**
   * An engine whose first run starts a desk create (`startCreate` decides when its call is
   * made), recording what that create had come to when each later run wrote its audit entries.
   */
  async function createDuringFirstRun(startCreate: (create: () => void) => void) {
    const { feed, db, service } = await setup();
    await seedPractice(service, 34);
    const host = desk!.host;
    let created: string | undefined;
    let asked = false;
    const atLaterRuns: (string | undefined)[] = [];
    const engine = createPullEngine({
      db,
      clock: host.clock,
      ids: host.ids,
      audit: {
        append: (action, id) => host.audit.append(action, id),
        appendAll: (action, ids) => {
          host.audit.appendAll(action, ids);
          if (asked) atLaterRuns.push(created);
          else {
            asked = true;
            startCreate(() => {
              void host.service.create('patients', { first_name: 'Walk', last_name: 'In', date_of_birth: '1985-05-05' }, { source: 'dashboard' }).then((p) => (created = p.id));
            });
          }
        },
      },
    });
    return { engine, feed, db, host, atLaterRuns };
  }

  it('writes a full page in runs, each with its cursor, and a desk create made during the first run is stored before the next', async () => {
    const { engine, feed, db, host, atLaterRuns } = await createDuringFirstRun((create) => create());
    expect(await engine.pullPage(feed, 100)).toMatchObject({ kind: 'applied', applied: 100, hasMore: true });
    expect(atLaterRuns.length).toBeGreaterThanOrEqual(1);
    // Answered (so committed) between the page's runs, not after the whole page.
    expect(atLaterRuns[0]).toMatch(/^pat_/);
    // Each run moved the cursor; the page's last ends at the page's end, and the rest follows.
    expect(await pullAll(engine, feed, 100)).toMatchObject({ kind: 'applied', hasMore: false });
    expect(engine.state(feed.key).received).toBe(102);
    expect(db.select().from(patients).all()).toHaveLength(35);
    expect(host.audit.verify()).toMatchObject({ intact: true });
  });

  it('lets a desk create that came while a run held the thread (in a turn of its own, as a timer or a request does) commit before the next run', async () => {
    // Not called from inside the run: the call itself waits for a turn of the loop, as a timer's does.
    const { engine, feed, host, atLaterRuns } = await createDuringFirstRun((create) => setImmediate(create));
    expect(await engine.pullPage(feed, 100)).toMatchObject({ kind: 'applied', applied: 100, hasMore: true });
    expect(atLaterRuns.length).toBeGreaterThanOrEqual(1);
    // Committed before the page's second run, not after it.
    expect(atLaterRuns[0]).toMatch(/^pat_/);
    expect(host.audit.verify()).toMatchObject({ intact: true });
  });

  it('has the next page\'s request at the upstream before it writes this page (the early ask leaves, not only is made)', async () => {
    // The upstream on its own thread, as a real one is in its own process: it can take the
    // request while this thread is busy writing. It raises `asked` when the second page's
    // request arrives; the page's audit entry (inside the page's transaction) waits for it.
    const asked = new Int32Array(new SharedArrayBuffer(4));
    const server = new Worker(
      `
      const http = require('node:http');
      const { parentPort, workerData } = require('node:worker_threads');
      const record = { id: 'pat_remote_1', first_name: 'Early', last_name: 'Wire', date_of_birth: '1980-01-01', created_at: '2026-11-20T10:00:00.000Z' };
      const server = http.createServer((request, response) => {
        const after = new URL(request.url, 'http://x').searchParams.get('after');
        if (after) {
          Atomics.store(workerData.asked, 0, 1);
          Atomics.notify(workerData.asked, 0);
        }
        const page = after ? { data: [], next_cursor: after, has_more: false } : { data: [{ collection: 'patients', cursor: '1', record }], next_cursor: '1', has_more: true };
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(page));
      });
      server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
      parentPort.on('message', () => server.close(() => parentPort.close()));
      `,
      { eval: true, workerData: { asked } },
    );
    try {
      const port = await new Promise<number>((resolve, reject) => server.once('message', resolve).once('error', reject));
      desk = startTestHost({ localApi: false, hotFolder: false });
      const client = createHttpV1Client({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k' });
      let arrivedWhileWriting: boolean | undefined;
      const engine = createPullEngine({
        db: desk.host.database.db,
        clock: desk.host.clock,
        ids: desk.host.ids,
        audit: {
          append: () => {
            // Not a timing: a request that only leaves after this page never arrives here.
            if (arrivedWhileWriting === undefined) arrivedWhileWriting = Atomics.wait(asked, 0, 0, 10_000) !== 'timed-out';
          },
        },
      });
      const feed: PullFeed = { key: 'wire', changes: (params) => client.changes!(params) };
      expect(await engine.pullPage(feed, 1)).toMatchObject({ kind: 'applied', applied: 1, hasMore: true });
      expect(arrivedWhileWriting).toBe(true);
      expect(await engine.pullPage(feed, 1)).toMatchObject({ kind: 'applied', applied: 0, hasMore: false });
    } finally {
      server.postMessage('close');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  }, 30_000);

  it('sets a record that fails the schema aside with its reason, applies the rest, and moves the cursor past it', async () => {
    const { engine, db } = await setup();
    const good = (n: number) => ({ id: `pat_remote_${n}`, first_name: 'Good', last_name: `Record${n}`, date_of_birth: '1980-01-01', created_at: '2026-11-20T10:00:00.000Z' });
    const page: ReceivedChangesPage = {
      data: [
        { collection: 'patients', cursor: '1', record: good(1) },
        { collection: 'patients', cursor: '2', record: { id: 'pat_remote_bad', first_name: 'Bad', created_at: 'yesterday' } },
        { collection: 'unicorns', cursor: '3', record: { id: 'u1' } },
        { collection: 'patients', cursor: '4', record: good(2) },
      ],
      next_cursor: '4',
      has_more: false,
    };
    const asked: (string | undefined)[] = [];
    const scripted: PullFeed = { key: 'scripted', changes: async (params) => (asked.push(params.after), page) };
    expect(await engine.pullPage(scripted)).toMatchObject({ kind: 'applied', applied: 2, setAside: 2 });
    expect(db.select().from(patients).all().map((p) => p.remote_id).sort()).toEqual(['pat_remote_1', 'pat_remote_2']);
    const aside = engine.setAside();
    expect(aside.map((a) => a.upstream_id)).toEqual(['u1', 'pat_remote_bad']);
    expect(aside[1].reason).toMatch(/last_name is required/);
    expect(aside[1].reason).toMatch(/date_of_birth/);
    expect(aside[1].reason).not.toMatch(/Bad/);
    expect(aside[0].reason).toMatch(/unicorns/);
    expect(engine.state('scripted').cursor).toBe('4');
    // Again (a repeat): nothing new written, the set-aside list does not grow.
    await engine.pullPage(scripted);
    expect(asked).toEqual([undefined, '4']);
    expect(db.select().from(patients).all()).toHaveLength(2);
    expect(db.select().from(pull_set_aside).all()).toHaveLength(2);
  });

  it('answers unavailable on a feed that is 404, writing nothing', async () => {
    const { engine } = await setup();
    const before = desk!.snapshot();
    const missing: PullFeed = { key: 'old-upstream', changes: async () => Promise.reject(new ServiceError('route_not_found', 'There is no route.')) };
    expect(await engine.pullPage(missing)).toEqual({ kind: 'unavailable' });
    expect(desk!.snapshot()).toEqual(before);
  });

  it('waits for its own push in flight instead of copying a record it may have sent, and never overwrites unsent work', async () => {
    const { engine, feed, db, service } = await setup();
    // The desk sent a patient; the upstream has it, the answer is not back yet.
    const mine = await desk!.host.service.create('patients', { first_name: 'Mine', last_name: 'InFlight', date_of_birth: '1990-09-09' }, { source: 'dashboard' });
    db.update(outbox).set({ state: 'sending', attempts: 1 }).where(eq(outbox.record_id, mine.id)).run();
    const theirs = await service.create('patients', { first_name: 'Mine', last_name: 'InFlight', date_of_birth: '1990-09-09' }, { source: 'api' });
    const outcome = await engine.pullPage(feed, 100);
    expect(outcome).toMatchObject({ kind: 'applied', waiting: true, hasMore: false });
    expect(db.select().from(patients).all()).toHaveLength(1);
    expect(engine.state(feed.key).cursor).toBeNull();
    // The push lands: the record is the desk's own, matched by upstream id, not copied.
    db.update(outbox).set({ state: 'synced', remote_id: theirs.id }).where(eq(outbox.record_id, mine.id)).run();
    db.update(patients).set({ remote_id: theirs.id }).where(eq(patients.id, mine.id)).run();
    expect(await pullAll(engine, feed)).toMatchObject({ waiting: false, hasMore: false });
    expect(db.select().from(patients).all().map((p) => p.id)).toEqual([mine.id]);
  });

  it('holds only the collection whose send is unanswered: the desk\'s patient in flight does not hold the practice\'s new cards, its card does', async () => {
    const { engine, feed, db, service } = await setup();
    const patient = await service.create('patients', { first_name: 'Known', last_name: 'Here', date_of_birth: '1971-07-07' }, { source: 'api' });
    await pullAll(engine, feed);
    const [localPatient] = engine.localIds('patients', [patient.id]);
    // A patient of the desk's own, sent once and not answered: it may be at the upstream already.
    const mine = await desk!.host.service.create('patients', { first_name: 'Mine', last_name: 'Unanswered', date_of_birth: '1990-09-09' }, { source: 'dashboard' });
    db.update(outbox).set({ state: 'queued', attempts: 1 }).where(eq(outbox.record_id, mine.id)).run();
    const card = await service.create('insurance_cards', { patient_id: patient.id, member_id: 'XGH1' }, { source: 'api' });
    expect(await pullAll(engine, feed)).toMatchObject({ waiting: false, hasMore: false });
    expect(engine.localIds('insurance_cards', [card.id])).toHaveLength(1);
    // A card of the desk's own in flight: the practice's next new card may be it, and waits.
    const myCard = await desk!.host.service.create('insurance_cards', { patient_id: localPatient, member_id: 'XGH2' }, { source: 'dashboard' });
    db.update(outbox).set({ state: 'sending', attempts: 1 }).where(eq(outbox.record_id, myCard.id)).run();
    const another = await service.create('insurance_cards', { patient_id: patient.id, member_id: 'XGH3' }, { source: 'api' });
    expect(await engine.pullPage(feed, 100)).toMatchObject({ kind: 'applied', waiting: true });
    expect(engine.localIds('insurance_cards', [another.id])).toHaveLength(0);
  });

  it('notes a pulled card photo without fetching it', async () => {
    const { engine, feed, service } = await setup();
    const patient = await service.create('patients', { first_name: 'Pic', last_name: 'Ture', date_of_birth: '1960-06-06' }, { source: 'api' });
    const photo = await service.uploadPhoto({ content_type: 'image/png', bytes: makePng(16, 16, [10, 20, 30]) });
    const card = await service.create('insurance_cards', { patient_id: patient.id, front_photo_object_key: photo.object_key }, { source: 'api' });
    await pullAll(engine, feed);
    const [cid] = engine.localIds('insurance_cards', [card.id]);
    const local = await desk!.host.service.get('insurance_cards', cid);
    expect(local.front_photo_download_url).toBe(`/v1/photos/${photo.object_key}`);
    expect(desk!.snapshot().photos).toEqual(expect.not.arrayContaining([photo.object_key]));
  });

  it('tells of each patient a page created once, after the page, all in one transaction (one commit for their duplicates, not one each)', async () => {
    const { feed, db, service } = await setup();
    await seedPractice(service, 3);
    const told: { id: string; inTransaction: boolean; stored: boolean }[] = [];
    const engine = createPullEngine({
      db,
      clock: desk!.host.clock,
      ids: desk!.host.ids,
      onPatientReceived: (id) => told.push({ id, inTransaction: db.$client.inTransaction, stored: db.select().from(patients).where(eq(patients.id, id)).get() !== undefined }),
    });
    await pullAll(engine, feed, 100);
    const received = db.select({ id: patients.id }).from(patients).all().map((p) => p.id);
    expect(told.map((t) => t.id).sort()).toEqual(received.sort());
    expect(told.every((t) => t.inTransaction && t.stored)).toBe(true);
    // Pulled again, nothing new: nobody is told twice.
    await pullAll(engine, feed, 100);
    expect(told).toHaveLength(3);
  });
});
