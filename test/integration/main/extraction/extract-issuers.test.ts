import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digitalCardQr, rngFrom } from '../../../../scripts/generate-barcode-cards';
import { FIXTURES } from '@test/support/digital-card-issuer';
import { makeTempDir } from '@test/support/temp-dir';

/**
 * `npm run extract -- --issuers FILE IMAGE` (issue 27): a photo of a card showing a SMART
 * Health Card's QR prints the card's fields as from the digital card, verified against the
 * trusted issuers given; without them the same card is read but not verified.
 */
const ROOT = path.resolve(__dirname, '../../../..');
const ISSUERS = path.join(FIXTURES, 'generated', 'trusted-issuers.json');
let temp: ReturnType<typeof makeTempDir>;
let image: string;

beforeAll(async () => {
  temp = makeTempDir('coverdesk-extract-issuers-');
  const shc = fs.readFileSync(path.join(FIXTURES, 'generated', 'carin-card.shc.txt'), 'utf8').trim();
  image = path.join(temp.dir, 'digital-card.jpg');
  fs.writeFileSync(image, (await digitalCardQr(rngFrom(5), shc, 'desk')).bytes);
}, 30_000);
afterAll(() => temp.cleanup());

function extract(...args: string[]) {
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/main/extraction/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run extract -- --issuers', () => {
  it('prints the digital card’s fields, verified against the issuers given, each marked as from the digital card', () => {
    const run = extract('--issuers', ISSUERS, image);
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.barcodes).toEqual([expect.objectContaining({ kind: 'digital_card', status: 'verified' })]);
    expect(result.fields.member_id).toEqual({ value: '102345672-02', confidence: 1, source: 'digital_card' });
    expect(result.fields.member_name).toMatchObject({ value: 'Jane Doe', source: 'digital_card' });
    expect(result.fields.rx_bin).toMatchObject({ value: '100045', source: 'digital_card' });
  }, 120_000);

  it('without --issuers the same card is read but not verified, with the reason', () => {
    const run = extract(image);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).barcodes).toEqual([expect.objectContaining({ kind: 'digital_card', status: 'not_verified', reason: expect.stringMatching(/issuer/i) })]);
  }, 120_000);

  it('an issuers file with a bad entry is refused, naming it, and nothing is read', () => {
    const bad = path.join(temp.dir, 'bad-issuers.json');
    fs.writeFileSync(bad, JSON.stringify({ issuers: [{ iss: 'not a url', name: 'Broken' }] }));
    const run = extract('--issuers', bad, image);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/iss/);
    expect(extract('--issuers', path.join(temp.dir, 'missing.json'), image)).toMatchObject({ status: 2, stderr: expect.stringMatching(/No such file/) });
  }, 120_000);
});
