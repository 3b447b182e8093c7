import { describe, expect, it } from 'vitest';
import { readBarcodePayload } from '@src/main/extraction/barcode-payload';
import { aamvaPayload, payerTrackPayload, STANDARD_SAMPLE } from '../../../../scripts/barcode-payloads';

// No desk: the CLI's reading (digital cards need the desk's trusted issuers).
const deps = {};

describe('readBarcodePayload (bad input: each a clear reason, nothing used)', () => {
  it('a truncated licence is invalid with the reason, and carries no details', async () => {
    const reading = await readBarcodePayload(deps, 'PDF417', aamvaPayload(STANDARD_SAMPLE).slice(0, 30));
    expect(reading).toEqual({ format: 'PDF417', kind: 'licence', status: 'invalid', reason: expect.stringMatching(/no DL or ID subfile|cut short/) });
  });

  it('a licence without its date of birth names the element', async () => {
    const reading = await readBarcodePayload(deps, 'text', aamvaPayload(STANDARD_SAMPLE, { drop: ['DBB'] }));
    expect(reading).toMatchObject({ kind: 'licence', status: 'invalid', reason: expect.stringMatching(/DBB \(date of birth\) is missing/) });
    expect(reading.licence).toBeUndefined();
  });

  it('a plan card payload cut short is invalid; a whole one fills its fields', async () => {
    expect(await readBarcodePayload(deps, 'PDF417', '%B8084061234XWP88')).toMatchObject({ kind: 'payer', status: 'invalid', reason: expect.stringMatching(/incomplete/) });
    const whole = await readBarcodePayload(deps, 'PDF417', payerTrackPayload({ issuer: '61234', memberId: 'XWP884210377', family: 'MORALES', given: 'TERESA' }));
    expect(whole).toMatchObject({ kind: 'payer', status: 'read', fields: { member_id: 'XWP884210377', member_name: 'TERESA MORALES' } });
  });

  it('a barcode that is neither a card nor a licence is kept raw and fills nothing', async () => {
    expect(await readBarcodePayload(deps, 'QRCode', 'https://example.org/menu')).toEqual({ format: 'QRCode', kind: 'unknown', status: 'read', reason: expect.stringMatching(/no layout/), raw: 'https://example.org/menu' });
  });

  it('a digital card without a desk to verify it against is failed with its reason, nothing filled', async () => {
    expect(await readBarcodePayload(deps, 'QRCode', 'shc:/0123')).toEqual({ format: 'QRCode', kind: 'digital_card', status: 'failed', reason: expect.stringMatching(/read at the desk/), fields: {} });
    expect(await readBarcodePayload(deps, 'text', 'https://viewer.example.org/#shlink:/eyJ4IjoxfQ')).toMatchObject({ kind: 'digital_card', status: 'failed' });
  });
});
