import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { findPlaintext } from '@src/main/security/plaintext-scan';
import { createHostLog, logFilePath } from '@src/main/support/host-log';
import { CANARY_MEMBER_ID, CANARY_PATIENT, CANARY_STRINGS } from '@test/support/canary-phi';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';
import { makeTempDir } from '@test/support/temp-dir';

let fx: HostFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

it('keeps a user-only log of events and ids, and starts afresh past 5 MiB keeping the last one', () => {
  const temp = makeTempDir();
  const file = path.join(temp.dir, 'logs', 'coverdesk.log');
  const log = createHostLog({ file, clock: { now: () => new Date('2026-11-23T10:00:00.000Z') } });
  log.write('sync.sent', { entry: 'obx_1', status: 201 });
  log.forComponent('local_api')('listening');
  expect(fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([
    { at: '2026-11-23T10:00:00.000Z', event: 'sync.sent', entry: 'obx_1', status: 201 },
    { at: '2026-11-23T10:00:00.000Z', event: 'local_api', message: 'listening' },
  ]);
  if (process.platform !== 'win32') {
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  }
  fs.appendFileSync(file, 'x'.repeat(5 * 1024 * 1024));
  createHostLog({ file, clock: { now: () => new Date() } }).write('started');
  expect(fs.existsSync(`${file}.1`)).toBe(true);
  expect(fs.readFileSync(file, 'utf8')).toMatch(/^\{"at":"[^"]+","event":"started"\}\n$/);
  temp.cleanup();
});

it('logs a whole visit (desk, extraction, sync to the sandbox) without a trace of the patient', async () => {
  fx = startTestHost({ localApi: {}, hotFolder: false, sync: { sandboxDelayMs: 50 } });
  await fx.host.start();
  const { bridge } = fx.host;
  const patient = await bridge['patients.create'](CANARY_PATIENT);
  const photo = await bridge['photos.upload']({ content_type: 'image/png', data_base64: Buffer.from(makePng(30, 20)).toString('base64') });
  const card = await bridge['cards.create']({ patient_id: patient.id, member_id: CANARY_MEMBER_ID, front_photo_object_key: photo.object_key });
  await bridge['extractions.create']({ insurance_card_id: card.id });
  await bridge['discoveries.create']({ insurance_card_id: card.id });
  const check = await bridge['checks.create']({
    insurance_card_id: card.id,
    provider_id: 'prv_01JD0000000000000000000001',
    clearinghouse_entity_id: 'che_01JD0000000000000000000001',
    service_type: 'health_benefit_plan_coverage',
  });
  for (let i = 0; i < 100 && (await bridge['checks.get']({ id: check.id })).status === 'pending'; i++) await new Promise((r) => setTimeout(r, 100));
  expect((await bridge['checks.get']({ id: check.id })).status).not.toBe('pending');
  await fx.host.close();
  const log = logFilePath(fx.dataDir);
  expect(fs.readFileSync(log, 'utf8')).toContain('"event":"local_api"');
  expect(findPlaintext([path.dirname(log)], CANARY_STRINGS)).toEqual([]);
});
