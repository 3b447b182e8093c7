import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { openApiDocument } from '@src/shared/contract/openapi-document';
import { snapshotDatabase } from '@test/support/db-snapshot';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest } from '@test/support/http-request';
import { aamvaPayload, payerTrackPayload, STANDARD_SAMPLE } from '../../../../scripts/barcode-payloads';

/** Issue 27, item 7: scanner software that decodes itself sends the text, through the real local API on its socket. */
describe('POST /v1/barcode_readings on the local API', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('reads a licence, a plan card, a payload of no layout and a damaged licence, each with its answer, and stores nothing', async () => {
    fx = startTestHost({ localApi: {}, hotFolder: false });
    await fx.host.start();
    const target = { socketPath: socketPath(fx.dataDir) };
    const auth = `Bearer ${fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim()}`;
    const send = (body: string) => httpRequest(target, { method: 'POST', path: '/v1/barcode_readings', headers: { 'content-type': 'application/json', authorization: auth }, body });
    const before = snapshotDatabase(fx.host.database.sqlite);

    const licence = await send(JSON.stringify({ barcode_text: aamvaPayload(STANDARD_SAMPLE) }));
    expect(licence.status).toBe(200);
    expect(licence.json).toMatchObject({ format: 'text', kind: 'licence', status: 'read', licence: { family_name: 'SAMPLE', first_name: 'MICHAEL', date_of_birth: '1986-06-06' } });
    expect(licence.text).not.toContain(STANDARD_SAMPLE.number);

    const card = await send(JSON.stringify({ barcode_text: payerTrackPayload({ issuer: '61234', memberId: 'XWP884210377', family: 'MORALES', given: 'TERESA' }) }));
    expect(card.json).toMatchObject({ kind: 'payer', status: 'read', fields: { member_id: 'XWP884210377', member_name: 'TERESA MORALES' } });

    expect((await send(JSON.stringify({ barcode_text: 'MEMBER SERVICES 1-800-555-0199' }))).json).toMatchObject({ kind: 'unknown', raw: 'MEMBER SERVICES 1-800-555-0199' });
    const damaged = await send(JSON.stringify({ barcode_text: aamvaPayload(STANDARD_SAMPLE, { drop: ['DBB'] }) }));
    expect(damaged.json).toMatchObject({ kind: 'licence', status: 'invalid', reason: expect.stringMatching(/DBB \(date of birth\) is missing/) });

    // Bad input: no text, and not JSON, each named.
    const empty = await send(JSON.stringify({ barcode_text: '' }));
    expect(empty.status).toBe(422);
    expect(empty.json.error.errors[0]).toMatchObject({ path: 'barcode_text' });
    expect((await send('{')).json.error.code).toBe('malformed_json');
    expect(snapshotDatabase(fx.host.database.sqlite)).toEqual({ ...before, audit_log: expect.any(Number) });
  });

  it('is in the OpenAPI document', () => {
    expect(openApiDocument().paths['/v1/barcode_readings']?.post?.operationId).toBe('readBarcode');
    expect(openApiDocument().components.schemas.BarcodeReading).toBeDefined();
  });
});
