import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateCards, type GeneratedCard } from '../../../../scripts/generate-cards';
import { createExtractionEngine, type ExtractionEngine } from '@src/main/extraction/extraction-engine';
import { createExtractionRunner, type ExtractionRunner } from '@src/main/extraction/extraction-runner';
import type { CallContext } from '@src/shared/contract';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { jpegClaiming } from '@test/support/images';

const DESK: CallContext = { source: 'dashboard' };
const entities = directoryEntities();
let engine: ExtractionEngine;
let card: GeneratedCard;
let photoCard: GeneratedCard;
let fx: HostFixture | undefined;
let runner: ExtractionRunner | undefined;

/** A page of prose, photographed: text, but no card. */
function letter(): Buffer {
  const canvas = createCanvas(1200, 900);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fbfbf8';
  ctx.fillRect(0, 0, 1200, 900);
  ctx.fillStyle = '#222';
  ctx.font = '30px "DejaVu Sans"';
  const words = 'Thank you for visiting our office today please remember to bring your list of medicines next time and arrive ten minutes early'.split(' ');
  for (let row = 0; row < 14; row++) ctx.fillText(words.slice(row % 7, (row % 7) + 9).join(' '), 60, 80 + row * 55);
  return canvas.toBuffer('image/png');
}

beforeAll(async () => {
  [card] = await generateCards({ count: 1, seed: 7 });
  photoCard = (await generateCards({ count: 10, seed: 7, styles: 'held-out' })).find((c) => c.style.capture === 'desk')!;
  engine = createExtractionEngine();
  await engine.warmUp();
}, 120_000);

afterEach(async () => {
  await runner?.stop?.();
  runner = undefined;
  await fx?.cleanup();
  fx = undefined;
});

afterAll(async () => {
  await engine.close();
});

describe('photos too poor to read', () => {
  it('a blurred photo says "retake: too blurry" instead of returning fields', async () => {
    const blurred = await sharp(card.bytes).blur(6).jpeg().toBuffer();
    await expect(engine.extract([{ bytes: blurred }], { entities })).rejects.toMatchObject({ reason: 'retake_blurry', message: expect.stringMatching(/^Retake: the photo is too blurry/) });
  });

  it('a reflection over the id of a photographed card says "retake: glare over the id"', async () => {
    const { width, height } = await sharp(photoCard.bytes).metadata();
    const glare = Buffer.from(`<svg width="${width}" height="${height}"><ellipse cx="${width! / 2}" cy="${height! / 2}" rx="${width! * 0.3}" ry="${height! * 0.22}" fill="#fff"/></svg>`);
    const bytes = await sharp(photoCard.bytes).composite([{ input: glare }]).jpeg().toBuffer();
    await expect(engine.extract([{ bytes }], { entities })).rejects.toMatchObject({ reason: 'retake_glare', message: expect.stringContaining('glare over the id') });
  });

  it('a photo of something that is not a card says so', async () => {
    await expect(engine.extract([{ bytes: letter() }], { entities })).rejects.toMatchObject({ reason: 'not_a_card' });
  });

  it('reads the same card sharp, and flags a member id it could not read as missing, not silently absent', async () => {
    const { fields } = await engine.extract([{ bytes: new Uint8Array(card.bytes) }], { entities });
    expect(fields.member_id?.value).toBe(card.truth.member_id);
    // The id covered by a plain white label (no glare on a white card): read the rest, say the id is missing.
    const { width } = await sharp(card.bytes).metadata();
    const hidden = await sharp(card.bytes)
      .composite([{ input: { create: { width: width!, height: 110, channels: 3, background: '#ffffff' } }, left: 0, top: 0 }])
      .png()
      .toBuffer();
    const partial = await engine.extract([{ bytes: hidden }], { entities }).catch((e: unknown) => e as Error);
    if (!(partial instanceof Error)) {
      const id = partial.fields.member_id!;
      expect(id.value === '' || id.confidence < 0.8 || id.value === card.truth.member_id).toBe(true);
    }
  });
});

describe('bad input through the runner: a clear reason each, nothing stored half, the desk keeps working', () => {
  it.each([
    ['a 50-megapixel photo', 'image_too_large', () => jpegClaiming(8200, 6200), 'image/jpeg'],
    ['a photo of something that is not a card', 'not_a_card', async () => letter(), 'image/png'],
    ['a blurred photo', 'retake_blurry', () => sharp(card.bytes).blur(6).jpeg().toBuffer(), 'image/jpeg'],
  ] as const)('%s: failure %s with no fields', async (_name, reason, make, contentType) => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const h = fx.host;
    runner = createExtractionRunner({ db: h.database.db, service: h.service, engine, clock: h.clock, events: h.events });
    await runner.start!();
    const patient = await h.service.create('patients', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' }, DESK);
    const bytes = new Uint8Array(await make());
    const photo = await h.service.uploadPhoto({ content_type: contentType, bytes });
    const saved = await h.service.create('insurance_cards', { patient_id: patient.id, front_photo_object_key: photo.object_key }, DESK);
    const bad = await h.service.create('extractions', { insurance_card_id: saved.id }, DESK);
    await runner.idle();
    const failed = await h.service.get('extractions', bad.id);
    expect(failed).toMatchObject({ status: 'failure', failure_reason: reason, finished_at: expect.any(String) });
    expect(failed.fields).toBeUndefined();
    expect(failed.text).toBeUndefined();
    // The card the desk saved is untouched, and the next card reads.
    expect(await h.service.get('insurance_cards', saved.id)).toEqual(saved);
    expect((await h.service.readPhoto(photo.object_key)).bytes.byteLength).toBe(bytes.byteLength);
    const good = await h.service.uploadPhoto({ content_type: card.content_type, bytes: new Uint8Array(card.bytes) });
    const next = await h.service.create('extractions', { insurance_card_id: (await h.service.create('insurance_cards', { patient_id: patient.id, front_photo_object_key: good.object_key }, DESK)).id }, DESK);
    await runner.idle();
    expect(await h.service.get('extractions', next.id)).toMatchObject({ status: 'success' });
  }, 60_000);
});
