/**
 * `npx tsx scripts/tessdata-fast.ts [--deb FILE] [--check]`: re-creates
 * `assets/tessdata/fast/eng.traineddata.gz`, tesseract's fast English model (tessdata_fast: a
 * smaller integer LSTM than the `4.0.0_best_int` one `@tesseract.js-data/eng` ships), from
 * Debian's `tesseract-ocr-eng` package. No npm package ships it, so the file is kept in the
 * repository (the app and CI never fetch it); this script says where it came from and checks
 * it is that. `--deb FILE` takes an already downloaded package instead of `apt-get download`;
 * `--check` only verifies the committed file against the model's sha256 (no download).
 *
 * Licence: Apache-2.0 (tessdata_fast, Google; Debian's packaging the same), as the package's
 * `copyright` file says; the notice is kept beside the model (`assets/tessdata/fast/README.md`).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

/** The Debian package and version the model is taken from (tessdata_fast 4.1.0). */
export const DEBIAN_PACKAGE = 'tesseract-ocr-eng=1:4.1.0-2';
const MODEL_IN_PACKAGE = 'usr/share/tesseract-ocr/5/tessdata/eng.traineddata';
/** sha256 of the uncompressed `eng.traineddata` in that package. */
export const MODEL_SHA256 = '7d4322bd2a7749724879683fc3912cb542f19906c83bcc1a52132556427170b2';
export const MODEL_FILE = path.join(__dirname, '..', 'assets', 'tessdata', 'fast', 'eng.traineddata.gz');

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Whether the gzipped file holds exactly the model Debian ships; the reason when not. */
export function checkModel(file = MODEL_FILE): string | undefined {
  if (!fs.existsSync(file)) return `${file} is missing: run npx tsx scripts/tessdata-fast.ts`;
  const found = sha256(zlib.gunzipSync(fs.readFileSync(file)));
  return found === MODEL_SHA256 ? undefined : `${file} holds a model with sha256 ${found}, not ${MODEL_SHA256}`;
}

function reproduce(deb: string | undefined): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessdata-fast-'));
  try {
    if (!deb) {
      execFileSync('apt-get', ['download', DEBIAN_PACKAGE], { cwd: dir, stdio: 'inherit' });
      const found = fs.readdirSync(dir).find((f) => f.endsWith('.deb'));
      if (!found) throw new Error(`apt-get download ${DEBIAN_PACKAGE} left no .deb`);
      deb = path.join(dir, found);
    }
    execFileSync('dpkg-deb', ['-x', deb, path.join(dir, 'x')]);
    const model = fs.readFileSync(path.join(dir, 'x', MODEL_IN_PACKAGE));
    if (sha256(model) !== MODEL_SHA256) throw new Error(`The package's model has sha256 ${sha256(model)}, not ${MODEL_SHA256}: not the one measured.`);
    fs.mkdirSync(path.dirname(MODEL_FILE), { recursive: true });
    // Gzipped for tesseract.js (`gzip: true`, as the bundled model); zlib writes no name or
    // time into the header, so the same package gives the same bytes.
    fs.writeFileSync(MODEL_FILE, zlib.gzipSync(model, { level: 9 }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const { values } = parseArgs({ options: { check: { type: 'boolean' }, deb: { type: 'string' } } });
  if (!values.check) reproduce(values.deb && path.resolve(values.deb));
  const problem = checkModel();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  console.log(`${path.relative(process.cwd(), MODEL_FILE)}: tessdata_fast eng, sha256 ${MODEL_SHA256} (uncompressed)`);
}
