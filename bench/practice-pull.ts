import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkpointInBackground, type BackgroundCheckpoints } from '@src/main/db/background-checkpoints';
import { createHost } from '@src/main/host/create-host';
import { createHttpV1Client } from '@src/main/http/v1-client';
import { createPullEngine, type PullFeed } from '@src/main/sync/pull-engine';
import { inTransactionWithoutFsync } from '@src/main/db/open-database';
import { insertRecord } from '@src/main/records/record-store';
import { MAX_CHANGES_LIMIT, type ReceivedChangesPage } from '@src/shared/contract';
import { seedPracticeFile } from '@test/support/sync/practice-seed';
import { makeTempDir } from '@test/support/temp-dir';
import { median, percentile, round, type Benchmark } from './harness';
import { startSandboxWorker, type Upstream } from './sync-drain';
import { threadCpuMs } from './thread-load';

/**
 * Issue 17: a new desk joining a practice of 100,000 records. The desk's bootstrap (each
 * page fetched, every record checked against the contract, upserted by upstream id with its
 * references mapped, audited as received, the cursor committed with the page) against a bare
 * loop fetching and parsing the same pages from the same sandbox in the same run. Then the
 * steady state: one pull round that brings one new record, against one bare GET of it.
 */
/**
 * The desk thread's CPU since `start` (`threadCpuMs`), in ms, or null where the system does
 * not say. The bootstrap's wall time on these shared two cores moves by 3× with the
 * neighbours' load; the desk thread's CPU per record does not, and it is the figure the pull's
 * own work decides (the upstream's thread is not in it).
 */
const cpuSince = (start: number): number | null => {
  const used = threadCpuMs() - start;
  return Number.isNaN(used) ? null : used;
};

interface Bootstrapped {
  ms: number;
  /** The desk thread's CPU over the bootstrap (its own creates meanwhile included), or null. */
  cpuMs: number | null;
  /** The process's largest resident set seen while the bootstrap ran (sampled after every page). */
  peakRssMb: number;
  /** The WAL file's size when the bootstrap ended: its largest size during it (SQLite does not shrink it). */
  walMb: number;
  records: number;
  /** How long the desk's own creates took while the bootstrap ran: is the desk usable meanwhile? */
  createMs: number[];
  engine: ReturnType<typeof createPullEngine>;
  feed: PullFeed;
  close(): Promise<void>;
}

async function bootstrap(dataDir: string, upstream: Upstream): Promise<Bootstrapped> {
  const key = randomBytes(32);
  const host = createHost({ dataDir, localApi: false, hotFolder: false, encryptionKey: key });
  const db = host.database.db;
  const client = createHttpV1Client({ baseUrl: upstream.url, apiKey: upstream.apiKey, timeoutMs: 60_000 });
  const feed: PullFeed = { key: upstream.url, changes: (params) => client.changes!(params) };
  const engine = createPullEngine({ db, clock: host.clock, ids: host.ids, audit: host.audit });
  // Meanwhile the desk registers someone every 100 ms, as a front desk would.
  const createMs: number[] = [];
  let running = true;
  const desk = (async () => {
    for (let i = 0; running; i++) {
      const t = process.hrtime.bigint();
      await host.service.create('patients', { first_name: 'Walk', last_name: `In${i}`, date_of_birth: '1985-05-05' }, { source: 'dashboard' });
      createMs.push(Number(process.hrtime.bigint() - t) / 1e6);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = process.hrtime.bigint();
  const cpuStarted = threadCpuMs();
  let peakRss = process.memoryUsage.rss();
  let background: BackgroundCheckpoints | undefined;
  for (;;) {
    const outcome = await engine.pullPage(feed, MAX_CHANGES_LIMIT);
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    if (outcome.kind !== 'applied') throw new Error(`bootstrap: ${outcome.kind}`);
    if (!outcome.hasMore) break;
    // As the pull component does (its host's bulkWrites): more pages to come, checkpoints off this thread.
    background ??= checkpointInBackground({ sqlite: host.database.sqlite, key });
    // As the pull component does: the desk's own work goes between pages, and the WAL is kept bounded.
    await new Promise((resolve) => setImmediate(resolve));
    await background.catchUp();
  }
  await background?.stop();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuMs = cpuSince(cpuStarted);
  running = false;
  await desk;
  const walMb = fs.statSync(`${host.database.sqlite.name}-wal`).size / 2 ** 20;
  return { ms, cpuMs, peakRssMb: peakRss / 2 ** 20, walMb, records: engine.state(feed.key).received, createMs, engine, feed, close: () => host.close() };
}

async function bareLoop(upstream: Upstream): Promise<{ ms: number; cpuMs: number | null; records: number }> {
  const started = process.hrtime.bigint();
  const cpuStarted = threadCpuMs();
  let after: string | undefined;
  let records = 0;
  for (;;) {
    const response = await fetch(`${upstream.url}/v1/changes?limit=${MAX_CHANGES_LIMIT}${after ? `&after=${after}` : ''}`, {
      headers: { Authorization: `Bearer ${upstream.apiKey}`, Accept: 'application/json' },
    });
    const page = (await response.json()) as { data: unknown[]; next_cursor: string; has_more: boolean };
    records += page.data.length;
    after = page.next_cursor;
    if (!page.has_more) break;
  }
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: cpuSince(cpuStarted), records };
}

/**
 * The physical floor under any bootstrap on this machine (issue 31, item 4): the same
 * records, already fetched and parsed, written into a fresh encrypted host database with
 * the host's pragmas: each record as the desk stores it (a local id, its upstream id, the
 * card's patient mapped), with the tables' indexes, and nothing else (no lookups, no
 * contract check, no upstream ids kept per service, no audit, no cursor). Once in a single
 * transaction, once committed per page of 100 as a resumable pull must.
 */
async function encryptedFloor(dataDir: string, upstream: Upstream, perPage: boolean): Promise<{ ms: number; cpuMs: number | null }> {
  const pages: ReceivedChangesPage[] = [];
  let after: string | undefined;
  const client = createHttpV1Client({ baseUrl: upstream.url, apiKey: upstream.apiKey, timeoutMs: 60_000 });
  for (;;) {
    const page = await client.changes!({ limit: MAX_CHANGES_LIMIT, ...(after ? { after } : {}) });
    pages.push(page);
    after = page.next_cursor;
    if (!page.has_more) break;
  }
  const host = createHost({ dataDir, localApi: false, hotFolder: false, encryptionKey: randomBytes(32) });
  try {
    const db = host.database.db;
    const local = new Map<string, string>();
    const write = (page: ReceivedChangesPage) => {
      for (const change of page.data) {
        const record = { ...(change.record as Record<string, unknown>) };
        const collection = change.collection as 'patients' | 'insurance_cards';
        const id = host.ids.next(collection === 'patients' ? 'pat' : 'ic');
        local.set(String(record.id), id);
        const row: Record<string, unknown> = { ...record, id, remote_id: record.id };
        delete row.sync;
        if (collection === 'insurance_cards') row.patient_id = local.get(String(record.patient_id));
        insertRecord(db, collection, row as never);
      }
    };
    const started = process.hrtime.bigint();
    const cpuStarted = threadCpuMs();
    if (perPage) for (const page of pages) inTransactionWithoutFsync(db, () => write(page));
    else inTransactionWithoutFsync(db, () => pages.forEach(write));
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: cpuSince(cpuStarted) };
  } finally {
    await host.close();
  }
}

export const practicePull: Benchmark = async ({ quick }) => {
  // COVERDESK_BENCH_PULL_RECORDS=1000000: the issue's million-record practice (about 10 minutes with its seeding).
  const records = Number(process.env.COVERDESK_BENCH_PULL_RECORDS) || (quick ? 4_000 : 100_000);
  const temp = makeTempDir('coverdesk-bench-pull-');
  const dbFile = path.join(temp.dir, 'sandbox', 'sandbox.sqlite');
  let upstream: Upstream | undefined;
  try {
    seedPracticeFile(dbFile, records);
    upstream = await startSandboxWorker(dbFile);
    process.stderr.write(`  practice_pull: ${records} records\n`);
    await bareLoop(upstream); // warm-up: the sandbox's page cache and JIT
    const bare = await bareLoop(upstream);
    const ours = await bootstrap(path.join(temp.dir, 'desk'), upstream);
    if (ours.records !== records || bare.records !== records) throw new Error(`bootstrap received ${ours.records}, bare ${bare.records} of ${records}`);
    const bareAgain = await bareLoop(upstream);
    const bareMs = Math.min(bare.ms, bareAgain.ms);
    const floor = await encryptedFloor(path.join(temp.dir, 'floor-one'), upstream, false);
    const floorPaged = await encryptedFloor(path.join(temp.dir, 'floor-paged'), upstream, true);
    const floorMs = floor.ms;
    const floorPagedMs = floorPaged.ms;
    const perRecordUs = (cpuMs: number | null) => (cpuMs === null ? null : round((cpuMs * 1000) / records, 1));
    const ourCpu = perRecordUs(ours.cpuMs);
    const cpuRatio = (other: number | null) => (ourCpu === null || other === null ? null : round(other / ourCpu, 3));

    // Steady state: one record made at the practice, one pull round brings it.
    const rounds = quick ? 10 : 40;
    const pullMs: number[] = [];
    const getMs: number[] = [];
    const post = (i: number) =>
      fetch(`${upstream!.url}/v1/patients`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${upstream!.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ first_name: 'Steady', last_name: `State${i}`, date_of_birth: '1990-01-01' }),
      });
    for (let i = 0; i < rounds; i++) {
      await post(i);
      const cursor = ours.engine.state(ours.feed.key).cursor;
      let t = process.hrtime.bigint();
      const bareAnswer = await fetch(`${upstream.url}/v1/changes?after=${cursor}`, { headers: { Authorization: `Bearer ${upstream.apiKey}` } });
      await bareAnswer.json();
      getMs.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      const outcome = await ours.engine.pullPage(ours.feed);
      pullMs.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (outcome.kind !== 'applied' || outcome.applied !== 1) throw new Error('steady state: the new record did not arrive in one round');
    }
    await ours.close();
    return [
      {
        name: 'practice_pull.bootstrap_records_per_s',
        value: round((records * 1000) / ours.ms, 0),
        unit: 'records/s',
        baseline: round((records * 1000) / bareMs, 0),
        ratio: round(bareMs / ours.ms, 3),
      },
      { name: 'practice_pull.bootstrap_time', value: round(ours.ms / 1000, 1), unit: 's', baseline: round(bareMs / 1000, 1), ratio: round(bareMs / ours.ms, 3) },
      // What the disk work alone would allow: the encrypted inserts, in one transaction and per page, against the bare loop.
      { name: 'practice_pull.floor_encrypted_inserts', value: round((records * 1000) / floorMs, 0), unit: 'records/s', baseline: round((records * 1000) / bareMs, 0), ratio: round(bareMs / floorMs, 3) },
      { name: 'practice_pull.floor_encrypted_inserts_per_page', value: round((records * 1000) / floorPagedMs, 0), unit: 'records/s', baseline: round((records * 1000) / bareMs, 0), ratio: round(bareMs / floorPagedMs, 3) },
      // The desk thread's CPU per record (load-independent, unlike the wall times): against the bare loop's (fetch and
      // parse only) and the per-page floor's (the encrypted inserts committed per page, nothing else).
      ...(ourCpu === null
        ? []
        : [
            { name: 'practice_pull.desk_cpu_per_record_vs_bare_loop', value: ourCpu, unit: 'µs', baseline: perRecordUs(bare.cpuMs), ratio: cpuRatio(perRecordUs(bare.cpuMs)) },
            { name: 'practice_pull.desk_cpu_per_record_vs_floor_per_page', value: ourCpu, unit: 'µs', baseline: perRecordUs(floorPaged.cpuMs), ratio: cpuRatio(perRecordUs(floorPaged.cpuMs)) },
          ]),
      // While the bootstrap ran, sampled after each page: the desk, the sandbox's thread and the checkpoint worker together
      // (an upper bound of the desk's own). Not the process's lifetime peak: the floors below hold every page in memory.
      { name: 'practice_pull.peak_memory', value: round(ours.peakRssMb, 0), unit: 'MB', baseline: null, ratio: null },
      { name: 'practice_pull.wal_file_after_bootstrap', value: round(ours.walMb, 1), unit: 'MB', baseline: null, ratio: null },
      { name: 'practice_pull.create_during_bootstrap_p95', value: round(percentile(ours.createMs, 95), 2), unit: 'ms', baseline: null, ratio: null },
      { name: 'practice_pull.steady_round_p50', value: round(median(pullMs), 2), unit: 'ms', baseline: round(median(getMs), 2), ratio: round(median(getMs) / median(pullMs), 3) },
      { name: 'practice_pull.steady_round_p95', value: round(percentile(pullMs, 95), 2), unit: 'ms', baseline: round(percentile(getMs, 95), 2), ratio: round(percentile(getMs, 95) / percentile(pullMs, 95), 3) },
    ];
  } finally {
    await upstream?.close();
    temp.cleanup();
  }
};
