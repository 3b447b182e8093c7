import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { digitalCardQr, generateBarcodeCards, rngFrom, type BarcodeCard } from '../../../../scripts/generate-barcode-cards';
import { decodeBarcodes } from '@src/main/extraction/barcodes';
import { createExtractionEngine, type ExtractionEngine } from '@src/main/extraction/extraction-engine';
import { createExtractionRunner } from '@src/main/extraction/extraction-runner';
import { prepareCard } from '@src/main/extraction/prepare-image';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import type { CallContext } from '@src/shared/contract';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

const DESK: CallContext = { source: 'dashboard' };

let engine: ExtractionEngine;
let cards: BarcodeCard[];
let fx: HostFixture | undefined;

beforeAll(async () => {
  cards = await generateBarcodeCards(7);
  engine = createExtractionEngine();
}, 120_000);

afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

afterAll(async () => {
  await engine.close();
});

const card = (file: string) => cards.find((c) => c.file === file)!;
const read = (c: BarcodeCard) => engine.extract([{ bytes: new Uint8Array(c.bytes) }], { entities: directoryEntities() });

describe('barcodes in the card reader', () => {
  it.each(['licence-0-scan', 'licence-0-desk', 'licence-1-scan', 'licence-1-desk'])("%s: a licence back's PDF417 gives the registration details, offered, not filled, and never its number", async (name) => {
    const c = card(`${name}.jpg`);
    const result = await read(c);
    const p = c.truth.person!;
    expect(result.barcodes).toEqual([
      expect.objectContaining({ format: 'PDF417', kind: 'licence', status: 'read', licence: expect.objectContaining({ family_name: p.family, first_name: p.first, date_of_birth: p.dob, sex: p.sex }) }),
    ]);
    expect(result.fields).toEqual({});
    expect(JSON.stringify(result)).not.toContain(p.number);
  }, 60_000);

  it.each(['scan', 'desk', 'glare', 'upside-down'])('a plan card with a PDF417 (%s): its member id and name come from the barcode and win over the OCR', async (how) => {
    const result = await read(card(`payer-pdf417-${how}.jpg`));
    expect(result.fields.member_id).toEqual({ value: 'XWP884210377', confidence: 1, source: 'barcode' });
    expect(result.fields.member_name).toEqual({ value: 'TERESA MORALES', confidence: 1, source: 'barcode' });
    expect(result.barcodes[0]).toMatchObject({ kind: 'payer', issuer_id: '8084061234', date_of_birth: '1979-03-14' });
  }, 60_000);

  it.each(['QRCode', 'DataMatrix', 'Aztec'])('a %s of no known layout is kept raw with the reading, nothing filled from it', async (symbology) => {
    const c = card(`unknown-${symbology}.jpg`);
    const result = await read(c);
    expect(result.barcodes).toEqual([expect.objectContaining({ format: symbology, kind: 'unknown', raw: c.truth.payload })]);
    expect(result.text).toContain(c.truth.payload);
    expect(Object.values(result.fields).some((f) => f?.source)).toBe(false);
  }, 60_000);

  it('a QR the prepared sides do not show is read from the photo as it is', async () => {
    // The card finder once took a patch of a phone's QR modules for the card and cut out only
    // that: the side it prepared showed no QR. Here the side is another card's, without any.
    const link = 'shlink:/eyJ1cmwiOiJodHRwOi8vMTI3LjAuMC4xOjQyNjg4L21hbmlmZXN0In0';
    const qr = await digitalCardQr(rngFrom(5), link, 'scan');
    const elsewhere = await prepareCard(new Uint8Array(card('no-barcode.jpg').bytes));
    expect(await decodeBarcodes(elsewhere, [])).toEqual([]);
    expect(await decodeBarcodes(elsewhere, [new Uint8Array(qr.bytes)])).toEqual([{ format: 'QRCode', text: link }]);
  }, 60_000);

  it('a card without a barcode is read by the OCR alone', async () => {
    const result = await read(card('no-barcode.jpg'));
    expect(result.barcodes).toEqual([]);
    expect(result.fields.member_id?.value).toBe('XWP884210377');
    expect(result.fields.member_id?.source).toBeUndefined();
  }, 60_000);

  it('a card without a barcode: the OCR reads it while the barcode look still runs, not after it', async () => {
    // The look is held back until the OCR has read the card (or 20 s, long past any reading):
    // run in turn, as before, the look would go first and the OCR only after it.
    const order: string[] = [];
    let ocrRead = () => {};
    const read = new Promise<void>((resolve) => (ocrRead = resolve));
    const slowLook = createExtractionEngine({
      log: (line) => {
        if (/passes /.test(line)) {
          order.push('ocr');
          ocrRead();
        }
      },
      decodeBarcodes: async (sides, photos) => {
        await Promise.race([read, new Promise((resolve) => setTimeout(resolve, 20_000))]);
        order.push('barcode look');
        return decodeBarcodes(sides, photos);
      },
    });
    try {
      const result = await slowLook.extract([{ bytes: new Uint8Array(card('no-barcode.jpg').bytes) }], { entities: directoryEntities() });
      expect(order).toEqual(['ocr', 'barcode look']);
      expect(result.barcodes).toEqual([]);
      expect(result.fields.member_id?.value).toBe('XWP884210377');
    } finally {
      await slowLook.close();
    }
  }, 90_000);

  it('a licence found while the OCR runs stops the OCR: only the licence is answered', async () => {
    const lines: string[] = [];
    const logged = createExtractionEngine({ log: (line) => lines.push(line) });
    try {
      const result = await logged.extract([{ bytes: new Uint8Array(card('licence-1-desk.jpg').bytes) }], { entities: directoryEntities() });
      expect(result.barcodes.map((r) => r.kind)).toEqual(['licence']);
      expect(result.fields).toEqual({});
      expect(result.text).toBe('');
      // Kinds and times only: no line names the person the licence is of.
      expect(lines).toEqual([expect.stringMatching(/^extraction: barcodes licence\/read, \d+ ms$/), expect.stringMatching(/^extraction: 1 photo\(s\), licence barcode, \d+ ms, OCR stopped$/)]);
    } finally {
      await logged.close();
    }
  }, 60_000);

  it('after a licence is read at intake (preview) and as a stored card photo, its licence number is in no table', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const h = fx.host;
    const licence = card('licence-0-desk.jpg');
    const photo = await h.service.uploadPhoto({ content_type: 'image/jpeg', bytes: new Uint8Array(licence.bytes) });
    const preview = await h.bridge['extractions.preview']({ front_photo_object_key: photo.object_key });
    expect(preview.barcodes?.[0]?.licence?.family_name).toBe('OKAFOR');
    const typed = await h.bridge['barcodes.read']({ text: licence.truth.payload });
    expect(typed.licence?.first_name).toBe('GRACE');

    const runner = createExtractionRunner({ db: h.database.db, service: h.service, engine, clock: h.clock, events: h.events });
    await runner.start!();
    const patient = await h.service.create('patients', { first_name: 'GRACE', last_name: 'OKAFOR', date_of_birth: '1984-02-29' }, DESK);
    const stored = await h.service.create('insurance_cards', { patient_id: patient.id, back_photo_object_key: photo.object_key }, DESK);
    const extraction = await h.service.create('extractions', { insurance_card_id: stored.id }, DESK);
    await runner.idle();
    await runner.stop!();
    expect((await h.service.get('extractions', extraction.id)).status).not.toBe('pending');

    const sqlite = h.database.sqlite;
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    const number = licence.truth.person!.number;
    for (const { name } of tables) {
      const rows = sqlite.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[];
      const hits = rows.filter((row) => Object.values(row).some((v) => (typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('latin1') : '').includes(number)));
      expect(hits, `table ${name}`).toEqual([]);
    }
  }, 120_000);
});
