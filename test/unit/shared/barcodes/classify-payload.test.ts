import { describe, expect, it } from 'vitest';
import { classifyPayload } from '@src/shared/barcodes/classify-payload';
import { parsePayerBarcode } from '@src/shared/barcodes/payer-barcode';
import { aamvaPayload, payerTrackPayload, STANDARD_SAMPLE } from '../../../../scripts/barcode-payloads';

describe('classifyPayload', () => {
  it.each([
    ['shc:/5676290952432060346029243740446031222959532654603460292540772804336028702864716745222809286133314564376531415906402203064504590856435503414245413640370636654171372412363803043756220467374075323239254334433260573601064529315312707424283950386922127667212376591260', 'shc'],
    ['SHC:/56762909', 'shc'],
    ['shlink:/eyJ1cmwiOiJodHRwczovL2V4YW1wbGUub3JnIn0', 'shlink'],
    ['https://viewer.example.org/index.html#shlink:/eyJ1cmwiOiJ4In0', 'shlink'],
    [aamvaPayload(STANDARD_SAMPLE), 'aamva'],
    [aamvaPayload(STANDARD_SAMPLE, { version: 1 }), 'aamva'],
    [payerTrackPayload({ issuer: '12345', memberId: 'XYZ123456789', family: 'DOE', given: 'JANE' }), 'payer'],
    ['https://example.org/not-a-link', 'unknown'],
    ['MEMBER 123', 'unknown'],
    ['http://viewer.example.org/#shlink:/eyJ1cmwiOiJ4In0', 'unknown'],
  ])('%s is %s', (text, kind) => {
    expect(classifyPayload(text)).toBe(kind);
  });
});

describe('parsePayerBarcode', () => {
  it('fills the cardholder id, the name and the date of birth from the health card track layout', () => {
    const result = parsePayerBarcode(payerTrackPayload({ issuer: '12345', memberId: 'XYZ123456789', family: 'DOE', given: 'JANE Q', dob: '1979-03-14' }));
    expect(result).toEqual({ ok: true, card: { issuer_id: '8084012345', fields: { member_id: 'XYZ123456789', member_name: 'JANE Q DOE' }, date_of_birth: '1979-03-14' } });
  });

  it('refuses a truncated payload and a name that is not FAMILY/GIVEN, each with its reason', () => {
    expect(parsePayerBarcode('%B8084012345XYZ12')).toEqual({ ok: false, reason: expect.stringMatching(/incomplete/) });
    expect(parsePayerBarcode('%B8084012345XYZ12^DOE JANE^^?')).toEqual({ ok: false, reason: expect.stringMatching(/FAMILY\/GIVEN/) });
  });
});
