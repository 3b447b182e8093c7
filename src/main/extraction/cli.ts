import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ClearinghouseEntity } from '../../shared/contract';
import { directoryEntities } from '../../shared/payers/payer-directory';
import { createExtractionEngine } from './extraction-engine';
import { asExtractionFailure } from './extraction-failure';

const USAGE = `Usage: npm run extract -- [--entities FILE.json] IMAGE [IMAGE]

Reads a card's photos (front first, JPEG or PNG) on this computer, with no network, and
prints {"fields":{"member_id":{"value":"…","confidence":0.97},…},"text":"…"}.
--entities: a JSON array of {id, name, payer_id} to match the payer against (default: the
payer directory Coverdesk ships with, ~1,250 payers with their aliases and other names).
A photo may hold the card on a desk or in a video frame, or both sides side by side.`;

/** `npm run extract -- IMAGE [IMAGE]`: one card's fields as JSON, for integrators and for checking. */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { entities: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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
  const engine = createExtractionEngine();
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
