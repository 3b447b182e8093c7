import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ClearinghouseEntity } from '../../shared/contract';
import { directoryEntities } from '../../shared/payers/payer-directory';
import { openDatabase } from '../db/open-database';
import { createIssuerDirectory } from '../digital-card/issuer-directory';
import type { DigitalCardDeps } from '../digital-card/read-digital-card';
import { systemClock } from '../support/clock';
import { createExtractionEngine } from './extraction-engine';
import { asExtractionFailure } from './extraction-failure';

const USAGE = `Usage: npm run extract -- [--entities FILE.json] [--issuers FILE.json] IMAGE [IMAGE]

Reads a card's photos (front first, JPEG or PNG) on this computer, with no network, and
prints {"fields":{"member_id":{"value":"…","confidence":0.97},…},"text":"…"}.
--entities: a JSON array of {id, name, payer_id} to match the payer against (default: the
payer directory Coverdesk ships with, ~1,250 payers with their aliases and other names).
--issuers: the trusted issuers a desk imports (Settings → Trusted issuers): a SMART Health
Card's QR is then verified against them and its fields printed as from the digital card
(without it, a digital card is read but shown as not verified). Links (shlink:/) are not
fetched: the command uses no network.
A photo may hold the card on a desk or in a video frame, or both sides side by side.`;

/**
 * The desk's digital-card reader on a throwaway database holding only the trusted issuers given
 * (no patient data is stored by reading: a link would be saved as waiting, and is dropped
 * with the folder). Offline: links wait, nothing is fetched.
 */
function issuersReader(file: string | undefined): { digitalCard: DigitalCardDeps; close(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-extract-'));
  const opened = openDatabase({ file: path.join(dir, 'issuers.sqlite') });
  const close = () => {
    opened.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const issuers = createIssuerDirectory({ db: opened.db, clock: systemClock });
    if (file) issuers.importFile(fs.readFileSync(file, 'utf8'));
    return { digitalCard: { db: opened.db, clock: systemClock, issuers, online: () => false }, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** `npm run extract -- IMAGE [IMAGE]`: one card's fields as JSON, for integrators and for checking. */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { entities: { type: 'string' }, issuers: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length === 0 || positionals.length > 2) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  let entities: readonly ClearinghouseEntity[] = directoryEntities();
  if (values.entities) {
    const parsed = z.array(ClearinghouseEntity).safeParse(JSON.parse(fs.readFileSync(values.entities, 'utf8')));
    if (!parsed.success) {
      console.error('--entities must be a JSON array of {"id", "name", "payer_id"} objects.');
      return 2;
    }
    entities = parsed.data;
  }
  const images: { bytes: Uint8Array }[] = [];
  for (const file of positionals) {
    if (!fs.existsSync(file)) {
      console.error(`No such file: ${file}`);
      return 2;
    }
    images.push({ bytes: new Uint8Array(fs.readFileSync(file)) });
  }
  if (values.issuers && !fs.existsSync(values.issuers)) {
    console.error(`No such file: ${values.issuers}`);
    return 2;
  }
  // Always the desk's reader: without issuers a digital card is read and shown as not verified.
  const reader = issuersReader(values.issuers);
  const engine = createExtractionEngine({ digitalCard: reader.digitalCard });
  try {
    const result = await engine.extract(images, { entities });
    console.log(JSON.stringify(result));
    return 0;
  } catch (error) {
    const failure = asExtractionFailure(error);
    console.log(JSON.stringify({ error: { reason: failure.reason, message: failure.message } }));
    return 1;
  } finally {
    await engine.close();
    reader.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : 'The extraction could not run.');
    process.exitCode = 1;
  },
);
