import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '@src/main/db/open-database';
import { createHost, type Host } from '@src/main/host/create-host';
import { createPhotoStore } from '@src/main/photos/photo-store';
import { createSandboxService } from '@src/main/sandbox/sandbox-service';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS, SEED_ROSTER } from '@src/main/reference/seed-data';
import { createIdGenerator } from '@src/main/support/ids';
import { getEntry, listEntries, stateCounts, type OutboxEntry } from '@src/main/sync/outbox-queue';
import { pendingRemoteRecords } from '@src/main/sync/remote-results';
import { retryEntry } from '@src/main/sync/sync-actions';
import { createSyncEngine, type SyncEngine } from '@src/main/sync/sync-engine';
import { SyncState, type CallContext } from '@src/shared/contract';
import { makePng } from '@test/support/images';
import { makeTempDir } from '@test/support/temp-dir';
import { createScriptedUpstream, type ScriptedUpstream, type WriteFault } from '@test/support/sync/scripted-upstream';
import { expectExactlyOnce } from '@test/support/sync/sync-harness';
import { manualClock, type ManualClock } from '@test/support/manual-clock';

/**
 * Model-based test of the sync engine's state machine (fast-check commands): the desk
 * creates records, the engine sends them through a scripted upstream (every fault, a
 * permanent refusal, a 401), the process crashes mid-send or restarts cleanly, the desk
 * retries. After every step the queue obeys its rules; at the end, with the network
 * healed and failures retried, everything is upstream exactly once.
 */

const DESK: CallContext = { source: 'dashboard' };
/** Longer than any backoff the policy below allows: each step may retry everything. */
const STEP_MS = 1_500;
const ALL_STATES = SyncState.options;

interface Model {
  patients: number;
  cards: number;
}

interface Real {
  dir: string;
  clock: ManualClock;
  host: Host;
  engine: SyncEngine;
  upstream: ScriptedUpstream;
  sandboxDb: OpenedDatabase;
  patients: string[];
  cards: string[];
  /** Right after a crash, entries may be left `sending` until the next engine's first round. */
  crashed: boolean;
  photoSeq: number;
}

function newEngine(real: Pick<Real, 'host' | 'clock' | 'upstream'>): SyncEngine {
  const engine = createSyncEngine({
    db: real.host.database.db,
    clock: real.clock,
    ids: real.host.ids,
    random: () => 0.5,
    policy: {
      concurrency: 3,
      send: { baseMs: 100, capMs: 1_000, maxRetryAfterMs: 1_000 },
      poll: { baseMs: 100, capMs: 1_000 },
      probe: { baseMs: 100, capMs: 1_000 },
    },
    readPhoto: (key) => real.host.service.readPhoto(key),
  });
  engine.setUpstream({ service: real.upstream, mode: 'upstream', url: null });
  return engine;
}

function openHost(dir: string, clock: ManualClock): Host {
  return createHost({ dataDir: path.join(dir, 'host'), clock, localApi: false, hotFolder: false });
}

function entries(real: Real): OutboxEntry[] {
  return listEntries(real.host.database.db, [...ALL_STATES], 100_000);
}

/** The rules the queue keeps after every step. */
function checkInvariants(real: Real, afterPump: boolean): void {
  const all = entries(real);
  const byId = new Map(all.map((e) => [e.id, e]));
  for (const entry of all) {
    const deps = entry.depends_on.map((id) => byId.get(id)).filter((d): d is OutboxEntry => !!d);
    if (entry.state === 'synced' || entry.state === 'sending') {
      // Nothing goes before what it refers to has arrived.
      expect(deps.every((d) => d.state === 'synced'), `${entry.id} went before its dependencies`).toBe(true);
    }
    if (entry.state === 'synced') expect(entry.remote_id).toBeTruthy();
    if (entry.state === 'failed') {
      // Only what the upstream refused for good fails: never a transient fault, a 401 or a crash.
      expect(real.upstream.refused.has(entry.id), `${entry.id} failed without a permanent refusal`).toBe(true);
    }
    if (entry.state === 'blocked') {
      expect(deps.some((d) => ['failed', 'blocked', 'needs_review'].includes(d.state)), `${entry.id} blocked by nothing`).toBe(true);
    }
    if (afterPump && !real.crashed) expect(entry.state, `${entry.id} left sending after a settled step`).not.toBe('sending');
    expect(entry.state).not.toBe('needs_review');
  }
  // The idempotency layer never committed a key twice.
  for (const [key, commits] of real.upstream.commits) expect(commits, key).toBe(1);
  // The kept counts (outbox_state_counts) agree with the entries, whatever changed them.
  const counted = Object.fromEntries(ALL_STATES.map((state) => [state, all.filter((e) => e.state === state).length]));
  expect(stateCounts(real.host.database.db)).toEqual(counted);
}

class CreatePatient implements fc.AsyncCommand<Model, Real> {
  constructor(readonly person: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const p = SEED_ROSTER[this.person % SEED_ROSTER.length];
    const patient = await real.host.service.create('patients', { first_name: p.first_name, last_name: p.last_name, date_of_birth: p.date_of_birth }, DESK);
    real.patients.push(patient.id);
    model.patients += 1;
    checkInvariants(real, false);
  }
  toString = () => `CreatePatient(${this.person})`;
}

class CreateCard implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly patient: number,
    readonly photo: boolean,
    readonly extras: ('check' | 'discovery')[],
  ) {}
  check = (model: Readonly<Model>) => model.patients > 0;
  async run(model: Model, real: Real) {
    const { service } = real.host;
    const front = this.photo ? await service.uploadPhoto({ content_type: 'image/png', bytes: makePng(2, 2, [real.photoSeq++ % 250, 7, 7]) }) : undefined;
    const card = await service.create(
      'insurance_cards',
      { patient_id: real.patients[this.patient % real.patients.length], member_id: `W${1000 + real.cards.length}`, front_photo_object_key: front?.object_key },
      DESK,
    );
    real.cards.push(card.id);
    model.cards += 1;
    for (const extra of this.extras) {
      if (extra === 'check') {
        await service.create(
          'electronic_eligibility_checks',
          { insurance_card_id: card.id, provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id, service_type: 'chiropractic' },
          DESK,
        );
      } else {
        await service.create('electronic_eligibility_discoveries', { insurance_card_id: card.id, source: 'dashboard' }, DESK);
      }
    }
    checkInvariants(real, false);
  }
  toString = () => `CreateCard(${this.patient}, ${this.photo}, [${this.extras.join(',')}])`;
}

class Pump implements fc.AsyncCommand<Model, Real> {
  constructor(readonly faults: WriteFault[]) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    real.upstream.script = [...this.faults];
    real.clock.advance(STEP_MS);
    await real.engine.pump();
    real.upstream.script = [];
    real.crashed = false;
    checkInvariants(real, true);
  }
  toString = () => `Pump([${this.faults.join(',')}])`;
}

class Network implements fc.AsyncCommand<Model, Real> {
  constructor(readonly up: boolean) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    real.upstream.down = !this.up;
  }
  toString = () => `Network(${this.up ? 'up' : 'down'})`;
}

/** The process dies while a write it sent has committed upstream and its answer is awaited. */
class Crash implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    real.upstream.script = ['hang'];
    real.clock.advance(STEP_MS);
    void real.engine.pump();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    real.upstream.script = [];
    // No stop, no flush: the process is gone. The database is closed under the old engine.
    real.host.database.close();
    real.host = openHost(real.dir, real.clock);
    real.engine = newEngine(real);
    real.crashed = true;
    checkInvariants(real, false);
  }
  toString = () => 'Crash';
}

class Restart implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    await real.engine.stop();
    await real.host.close();
    real.host = openHost(real.dir, real.clock);
    real.engine = newEngine(real);
    checkInvariants(real, false);
  }
  toString = () => 'Restart';
}

/** The desk retries a failed entry from the Sync screen (after the upstream's cause is fixed). */
class RetryFailed implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    const failed = entries(real).find((e) => e.state === 'failed');
    if (!failed) return;
    real.upstream.refused.delete(failed.id);
    retryEntry({ db: real.host.database.db, clock: real.clock, kick: () => real.engine.kick() }, failed.id);
    expect(getEntry(real.host.database.db, failed.id)?.state).toBe('queued');
    checkInvariants(real, false);
  }
  toString = () => 'RetryFailed';
}

/** New credentials saved: a 401 pause ends. */
class NewCredentials implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    real.engine.setUpstream({ service: real.upstream, mode: 'upstream', url: null });
  }
  toString = () => 'NewCredentials';
}

const fault = fc.constantFrom<WriteFault>('ok', 'ok', 'ok', 'unreachable', 'lost', '503', '422', '401');
const commands = [
  fc.nat(50).map((n) => new CreatePatient(n)),
  fc.tuple(fc.nat(50), fc.boolean(), fc.subarray(['check', 'discovery'] as const)).map(([p, photo, extras]) => new CreateCard(p, photo, [...extras])),
  fc.array(fault, { maxLength: 4 }).map((faults) => new Pump(faults)),
  fc.array(fault, { maxLength: 4 }).map((faults) => new Pump(faults)),
  fc.boolean().map((up) => new Network(up)),
  fc.constant(new Crash()),
  fc.constant(new Restart()),
  fc.constant(new RetryFailed()),
  fc.constant(new NewCredentials()),
];

async function settle(real: Real): Promise<void> {
  real.upstream.down = false;
  real.upstream.script = [];
  real.engine.setUpstream({ service: real.upstream, mode: 'upstream', url: null });
  for (let step = 0; step < 400; step++) {
    for (const failed of entries(real).filter((e) => e.state === 'failed')) {
      real.upstream.refused.delete(failed.id);
      retryEntry({ db: real.host.database.db, clock: real.clock, kick: () => real.engine.kick() }, failed.id);
    }
    real.clock.advance(STEP_MS);
    await real.engine.pump();
    const counts = stateCounts(real.host.database.db);
    if (counts.synced > 0 && counts.synced === Object.values(counts).reduce((a, b) => a + b, 0) && pendingRemoteRecords(real.host.database.db).length === 0) return;
  }
  throw new Error(`did not settle: ${JSON.stringify(stateCounts(real.host.database.db))}`);
}

describe('the sync engine as a state machine (fast-check model-based commands)', () => {
  it('keeps the queue rules at every step and ends with everything upstream exactly once', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30 }), async (cmds) => {
        const temp = makeTempDir('coverdesk-model-');
        const clock = manualClock();
        const sandboxDb = openDatabase({ file: path.join(temp.dir, 'sandbox.sqlite') });
        const sandbox = createSandboxService({
          db: sandboxDb.db,
          clock,
          ids: createIdGenerator(clock),
          photos: createPhotoStore(path.join(temp.dir, 'sandbox-photos')),
          photoUrl: (key) => `/v1/photos/${key}`,
          delayMs: 0,
        });
        const upstream = createScriptedUpstream({ sandbox, db: sandboxDb.db, clock });
        const host = openHost(temp.dir, clock);
        const real: Real = { dir: temp.dir, clock, host, upstream, sandboxDb, engine: newEngine({ host, clock, upstream }), patients: [], cards: [], crashed: false, photoSeq: 0 };
        try {
          // Every run starts with one patient, so card commands always have someone to belong to.
          await new CreatePatient(0).run({ patients: 0, cards: 0 }, real);
          await fc.asyncModelRun(() => ({ model: { patients: 1, cards: 0 }, real }), cmds);
          await settle(real);
          checkInvariants(real, true);
          expectExactlyOnce(real.host.database.db, sandboxDb.db);
          runs += 1;
        } finally {
          await real.engine.stop();
          await real.host.close();
          sandboxDb.close();
          temp.cleanup();
        }
      }),
      { numRuns: 40, seed: 424242 },
    );
    expect(runs).toBe(40);
  }, 120_000);
});
