import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { extractions } from '@src/main/db/schema';
import { createExtractionEngine, type ExtractionEngine } from '@src/main/extraction/extraction-engine';
import { ExtractionFailure } from '@src/main/extraction/extraction-failure';
import { createExtractionRunner, type ExtractionRunner } from '@src/main/extraction/extraction-runner';
import { hostPaths } from '@src/main/host/create-host';
import { createHotFolder, type HotFolderExtractor } from '@src/main/inbox/hot-folder';
import { listInboxItems } from '@src/main/inbox/inbox-store';
import { SEED_CLEARINGHOUSE_ENTITIES } from '@src/main/reference/seed-data';
import type { CallContext } from '@src/shared/contract';
import { ServiceError } from '@src/shared/service-error';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';
import { freePort } from '@test/support/sync/sync-harness';

const DESK: CallContext = { source: 'dashboard' };

let engine: ExtractionEngine;
let cards: GeneratedCard[];
let fx: HostFixture | undefined;
let runner: ExtractionRunner | undefined;

beforeAll(async () => {
  cards = await generateCards({ count: 2, seed: 7 });
  // One warm engine for the runner tests: the worker is started once for the file.
  engine = createExtractionEngine();
}, 60_000);

afterEach(async () => {
  await runner?.stop?.();
  runner = undefined;
  await fx?.cleanup();
  fx = undefined;
});

afterAll(async () => {
  await engine.close();
});

function host(options: Parameters<typeof startTestHost>[0] = {}) {
  fx = startTestHost({ localApi: false, hotFolder: false, ...options });
  return fx.host;
}

function runnerFor(h: ReturnType<typeof host>): ExtractionRunner {
  runner = createExtractionRunner({ db: h.database.db, service: h.service, engine, clock: h.clock, events: h.events });
  return runner;
}

async function cardWith(h: ReturnType<typeof host>, photo?: GeneratedCard) {
  const patient = await h.service.create('patients', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' }, DESK);
  const front = photo ? await h.service.uploadPhoto({ content_type: photo.content_type, bytes: new Uint8Array(photo.bytes) }) : undefined;
  return h.service.create('insurance_cards', { patient_id: patient.id, ...(front ? { front_photo_object_key: front.object_key } : {}) }, DESK);
}

function recordsChanged(h: ReturnType<typeof host>) {
  const seen: { collection: string; id: string }[] = [];
  h.events.on('records.changed', (change) => seen.push(change));
  return seen;
}

describe('extraction runner', () => {
  it('completes a new extraction: pending → success with fields, text and finished_at, then tells the desk', async () => {
    const h = host();
    await runnerFor(h).start!();
    const card = await cardWith(h, cards[0]);
    const changes = recordsChanged(h);
    const created = await h.service.create('extractions', { insurance_card_id: card.id }, DESK);
    expect(created).toMatchObject({ status: 'pending', engine: 'on_device' });
    expect(created.finished_at).toBeUndefined();

    await runner!.idle();
    const done = await h.service.get('extractions', created.id);
    expect(done).toMatchObject({ status: 'success', engine: 'on_device' });
    expect(done.finished_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(done.fields?.member_id).toEqual({ value: cards[0].truth.member_id, confidence: expect.any(Number) });
    expect(done.fields?.payer_name?.value).toBe(cards[0].truth.payer_name);
    expect(done.text).toContain(cards[0].truth.member_id);
    expect(done.failure_reason).toBeUndefined();
    expect(changes).toContainEqual({ collection: 'extractions', id: created.id });
  });

  it('a card without photos: failure with reason no_photos', async () => {
    const h = host();
    await runnerFor(h).start!();
    const card = await cardWith(h);
    const created = await h.service.create('extractions', { insurance_card_id: card.id }, DESK);
    await runner!.idle();
    expect(await h.service.get('extractions', created.id)).toMatchObject({ status: 'failure', failure_reason: 'no_photos', finished_at: expect.any(String) });
  });

  it('a photo damaged in storage: failure with reason unreadable_image, not a crash; the next card still reads', async () => {
    const h = host();
    await runnerFor(h).start!();
    const damaged = await cardWith(h, cards[1]);
    const key = fs.readdirSync(hostPaths(fx!.dataDir).photos).find((f) => !f.endsWith('.tmp'))!;
    fs.writeFileSync(path.join(hostPaths(fx!.dataDir).photos, key), Buffer.from('not a photo any more'));
    const bad = await h.service.create('extractions', { insurance_card_id: damaged.id }, DESK);
    await runner!.idle();
    expect(await h.service.get('extractions', bad.id)).toMatchObject({ status: 'failure', failure_reason: 'unreadable_image' });

    const good = await h.service.create('extractions', { insurance_card_id: (await cardWith(h, cards[0])).id }, DESK);
    await runner!.idle();
    expect(await h.service.get('extractions', good.id)).toMatchObject({ status: 'success' });
  });

  it('completes extractions left pending when it starts (the app closed mid-read)', async () => {
    const h = host();
    const card = await cardWith(h, cards[0]);
    const created = await h.service.create('extractions', { insurance_card_id: card.id }, DESK);
    expect((await h.service.get('extractions', created.id)).status).toBe('pending');
    await runnerFor(h).start!();
    await runner!.idle();
    expect((await h.service.get('extractions', created.id)).status).toBe('success');
  });

  it('never changes a terminal extraction (one the upstream finished first keeps its reading)', async () => {
    const h = host();
    const card = await cardWith(h, cards[0]);
    const created = await h.service.create('extractions', { insurance_card_id: card.id }, DESK);
    const finished = { status: 'success' as const, engine: 'upstream' as const, fields: { member_id: { value: 'UPSTREAM1', confidence: 0.9 } }, finished_at: '2026-11-22T09:00:00.000Z' };
    h.database.db.update(extractions).set(finished).where(eq(extractions.id, created.id)).run();
    await runnerFor(h).start!();
    h.events.emit('records.changed', { collection: 'extractions', id: created.id });
    await runner!.idle();
    expect(await h.service.get('extractions', created.id)).toMatchObject(finished);
  });
});

describe('extraction engine failures', () => {
  it('a corrupt or truncated image is a failure with a reason, never a crash; the worker keeps working', async () => {
    const entities = SEED_CLEARINGHOUSE_ENTITIES;
    const truncated = new Uint8Array(cards[0].bytes.subarray(0, 4000));
    for (const bytes of [truncated, new Uint8Array(Buffer.from('definitely not an image'))]) {
      const failure = await engine.extract([{ bytes }], { entities }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ExtractionFailure);
      expect(failure).toMatchObject({ reason: 'unreadable_image', message: expect.stringContaining('could not be read') });
    }
    await expect(engine.extract([{ bytes: new Uint8Array(0) }], { entities })).rejects.toMatchObject({ reason: 'empty_file' });
    await expect(engine.extract([], { entities })).rejects.toMatchObject({ reason: 'no_photos' });
    // A photo of nothing: read fine, but no card on it.
    await expect(engine.extract([{ bytes: makePng(600, 380, [250, 250, 250]) }], { entities })).rejects.toMatchObject({ reason: 'no_fields_found' });
    const { fields } = await engine.extract([{ bytes: new Uint8Array(cards[0].bytes) }], { entities });
    expect(fields.member_id?.value).toBe(cards[0].truth.member_id);
  });
});

describe('the host', () => {
  it('runs the runner once started, and answers extractions.preview before a card exists', async () => {
    // An upstream nothing listens on: the desk is offline, so only the device reads cards.
    const h = host({ upstream: { url: `http://127.0.0.1:${await freePort()}`, apiKey: 'sk_test_offline' } });
    const photo = await h.service.uploadPhoto({ content_type: cards[0].content_type, bytes: new Uint8Array(cards[0].bytes) });

    const preview = await h.bridge['extractions.preview']({ front_photo_object_key: photo.object_key });
    expect(preview).toMatchObject({ status: 'success', engine: 'on_device' });
    expect(preview.fields?.rx_bin?.value).toBe(cards[0].truth.rx_bin);

    const before = fx!.snapshot();
    const unknown = `${'0'.repeat(64)}.jpg`;
    const refused = await h.bridge['extractions.preview']({ front_photo_object_key: photo.object_key, back_photo_object_key: unknown }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ status: 422, code: 'validation_failed', errors: [{ path: 'back_photo_object_key', code: 'not_found' }] });
    expect(fx!.snapshot()).toEqual(before);

    await h.start();
    const card = await h.service.create('insurance_cards', { patient_id: (await h.service.create('patients', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' }, DESK)).id, front_photo_object_key: photo.object_key }, DESK);
    const created = await h.service.create('extractions', { insurance_card_id: card.id }, DESK);
    await expect.poll(async () => (await h.service.get('extractions', created.id)).status, { timeout: 30_000, interval: 100 }).toBe('success');
  }, 60_000);
});

describe('the hot folder with this engine as its extractor', () => {
  it('fills a scanned card’s inbox item with the fields read on the device', async () => {
    const h = host();
    let now = Date.parse('2026-11-22T09:00:00.000Z');
    const clock = { now: () => new Date(now) };
    const dir = path.join(fx!.dataDir, 'scans');
    const extractor: HotFolderExtractor = engine;
    const folder = createHotFolder({ dir, db: h.database.db, service: h.service, clock, ids: h.ids, events: h.events, extractor, settleMs: 1000, loneFrontMs: 1000 });
    try {
      fs.writeFileSync(path.join(dir, `desk-scan.front.${cards[0].content_type === 'image/png' ? 'png' : 'jpg'}`), cards[0].bytes);
      await folder.scan();
      now += 5000;
      const [id] = await folder.scan();
      await expect.poll(() => listInboxItems(h.database.db, 'new').find((item) => item.id === id)?.extraction_status, { timeout: 30_000, interval: 100 }).toBe('success');
      const item = listInboxItems(h.database.db, 'new').find((i) => i.id === id)!;
      expect(item.extraction_fields?.member_id?.value).toBe(cards[0].truth.member_id);
      expect(item.extraction_fields?.payer_name?.value).toBe(cards[0].truth.payer_name);
    } finally {
      await folder.stop();
    }
  }, 60_000);
});
