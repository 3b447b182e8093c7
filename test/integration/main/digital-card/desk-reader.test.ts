import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '@test/support/digital-card-issuer';
import { manualClock } from '@test/support/manual-clock';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

/** The card reader's barcode path reaches the desk's digital-card reader: verified against the desk's trusted issuers. */
let fx: HostFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const shc = () => readFileSync(path.join(FIXTURES, 'generated', 'carin-card.shc.txt'), 'utf8').trim();

describe('digital cards at the desk', () => {
  it('a scanned shc:/ is verified against the trusted issuers the desk imported, and fills the card marked as from the digital card', async () => {
    fx = startTestHost({ localApi: false, clock: manualClock('2026-11-23T09:00:00.000Z') });
    const unknown = await fx.host.bridge['barcodes.read']({ text: shc() });
    expect(unknown).toMatchObject({ kind: 'digital_card', status: 'not_verified', reason: expect.stringMatching(/issuer/i) });
    await fx.host.bridge['digitalCards.importIssuers']({ text: readFileSync(path.join(FIXTURES, 'generated', 'trusted-issuers.json'), 'utf8') });
    const verified = await fx.host.bridge['barcodes.read']({ text: shc() });
    expect(verified).toMatchObject({ kind: 'digital_card', status: 'verified' });
    expect(verified.fields?.member_id).toBeTruthy();
    expect(verified.fields?.member_name).toBeTruthy();
  });
});
