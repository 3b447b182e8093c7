import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { extractions } from '../db/schema';
import type { HostComponent } from '../support/host-component';
import { findRow } from '../records/record-store';
import type { Clock } from '../support/clock';
import type { EventHub } from '../support/event-hub';
import type { V1Service } from '../../shared/contract';
import { knownEntities, readCardPhotos } from './card-photos';
import type { ExtractionEngine } from './extraction-engine';
import { asExtractionFailure, ExtractionFailure } from './extraction-failure';

export interface ExtractionRunnerDeps {
  db: Db;
  service: Pick<V1Service, 'list' | 'readPhoto'>;
  engine: Pick<ExtractionEngine, 'extract'>;
  clock: Clock;
  events: EventHub;
  /** Ids and reasons only: card text is PHI. */
  log?: (message: string) => void;
}

export interface ExtractionRunner extends HostComponent {
  /** Resolves once every extraction queued so far is finished (for tests and shutdown). */
  idle(): Promise<void>;
}

/**
 * Completes on-device extractions: each `pending` one becomes `success` (fields, text,
 * finished_at) or `failure` (failure_reason, finished_at), once, then `records.changed`
 * tells the desk. Runs the ones left pending at start (an app closed mid-read), then each
 * new one as it is created. One card at a time: the OCR worker reads one image at a time
 * anyway, and the desk's newest card is never starved by a long queue of retries.
 */
export function createExtractionRunner(deps: ExtractionRunnerDeps): ExtractionRunner {
  const log = deps.log ?? (() => {});
  const queue = new Set<string>();
  let running: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;
  let stopped = true;

  function pendingOnDevice(): string[] {
    return deps.db
      .select({ id: extractions.id })
      .from(extractions)
      .where(and(eq(extractions.status, 'pending'), eq(extractions.engine, 'on_device')))
      .orderBy(asc(extractions.id))
      .all()
      .map((row) => row.id);
  }

  function finish(id: string, columns: Partial<typeof extractions.$inferInsert>): void {
    // Terminal states never change: a record the upstream finished first keeps its reading.
    const changed = deps.db
      .update(extractions)
      .set({ ...columns, finished_at: deps.clock.now().toISOString() })
      .where(and(eq(extractions.id, id), eq(extractions.status, 'pending')))
      .run().changes;
    if (changed > 0) deps.events.emit('records.changed', { collection: 'extractions', id });
  }

  async function complete(id: string): Promise<void> {
    const row = findRow(deps.db, 'extractions', id);
    if (!row || row.status !== 'pending' || row.engine !== 'on_device') return;
    try {
      const card = findRow(deps.db, 'insurance_cards', row.insurance_card_id);
      const keys = [card?.front_photo_object_key, card?.back_photo_object_key].filter((k): k is string => !!k);
      if (keys.length === 0) throw new ExtractionFailure('no_photos', 'The card has no photos to read.');
      let images;
      try {
        images = await readCardPhotos(deps.service, keys);
      } catch {
        throw new ExtractionFailure('unreadable_image', 'A photo of the card could not be read from storage.');
      }
      const result = await deps.engine.extract(images, { entities: await knownEntities(deps.service) });
      finish(id, { status: 'success', fields: result.fields, text: result.text });
      log(`extraction ${id}: success`);
    } catch (error) {
      const failure = asExtractionFailure(error);
      finish(id, { status: 'failure', failure_reason: failure.reason });
      log(`extraction ${id}: failure (${failure.reason})`);
    }
  }

  async function drain(): Promise<void> {
    while (!stopped && queue.size > 0) {
      const id = queue.values().next().value as string;
      queue.delete(id);
      try {
        await complete(id);
      } catch (error) {
        // The record could not even be marked failed (the database is closing, the disk is
        // full): it stays pending and is read again at the next start. The runner goes on.
        log(`extraction ${id}: left pending (${error instanceof Error ? error.name : 'unknown'})`);
      }
    }
    running = undefined;
  }

  function enqueue(ids: string[]): void {
    if (stopped) return;
    for (const id of ids) queue.add(id);
    // After the current call returns: a create is answered before its card is read.
    running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
  }

  return {
    name: 'extraction-runner',
    async start() {
      stopped = false;
      unsubscribe = deps.events.on('records.changed', ({ collection, id }) => {
        if (collection === 'extractions') enqueue([id]);
      });
      enqueue(pendingOnDevice());
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      queue.clear();
      // The card being read finishes; the rest stay pending for the next start.
      await running;
    },
    async idle() {
      while (running) await running;
    },
  };
}
