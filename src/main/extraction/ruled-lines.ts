import type { PreparedImage } from './prepare-image';

/** Grey under this may be part of a rule (a rule's pixels are lighter than text's once scanned or compressed). */
const RULE_INK = 160;
/** A rule's run is at least this share ink: a row through small print, its letters' gaps bridged, is long too, but gappy. */
const RULE_FILL = 0.85;
/** Whitened beside a rule on each side: its soft edge, which the OCR's binarising would keep as a faint line. */
const HALO = 2;

/**
 * Whitens the thin ruled lines of boxes and tables, in place: the lines of a form's boxes, of
 * a boxed Rx block or a copay table. Tesseract's page layout takes text enclosed by a ruled
 * box for part of a picture and drops it: a paper-form card whose fields each sit in a box
 * read as its header and footer only. This is what document OCR does before reading forms
 * (line removal): a rule is a run of ink, gaps of up to `thin` pixels bridged (a rule broken by the
 * scan or the JPEG), at least a twelfth of the width or a tenth of the height long, mostly
 * ink, at most `thin` pixels thick across it, with paper beyond it on both sides. Letters
 * are never that long at their stroke's thickness; a coloured band (a knockout header) is
 * thicker; where a scanner's streak runs through a letter, the letter is kept whole.
 */
export function eraseRuledLines(gray: Uint8Array, width: number, height: number): number {
  return eraseInto(Uint8Array.from(gray), gray, width, height);
}

/** The side with its ruled lines erased; none when it has none (the side as it was is what there is to read). */
export function withoutRuledLines(image: PreparedImage): PreparedImage | undefined {
  const gray = Uint8Array.from(image.gray);
  return eraseInto(image.gray, gray, image.width, image.height) > 0 ? { ...image, gray } : undefined;
}

/** Finds the rules on `source` (left as it is) and whitens them on `target`, a copy of it; how many spans were whitened. */
function eraseInto(source: Uint8Array, target: Uint8Array, width: number, height: number): number {
  const thin = Math.max(3, Math.round(Math.max(width, height) / 250));
  const rows: Axis = { along: width, across: height, stepAlong: 1, stepAcross: width, minRun: Math.round(width / 12), thin };
  const columns: Axis = { along: height, across: width, stepAlong: width, stepAcross: 1, minRun: Math.round(height / 10), thin };
  // Both directions found on the unchanged image, so a box's corners are found by both and
  // a rule's crossing with another counts as paper beside it, not as a letter it runs through.
  const horizontal = longRuns(source, rows);
  const vertical = longRuns(source, columns);
  return erase(source, target, rows, horizontal, vertical) + erase(source, target, columns, vertical, horizontal);
}

interface Axis {
  along: number;
  across: number;
  /** Index step between neighbouring pixels along the rule, and across it. */
  stepAlong: number;
  stepAcross: number;
  minRun: number;
  thin: number;
}

/** The pixels of long, mostly inked runs along the axis. */
function longRuns(gray: Uint8Array, axis: Axis): Uint8Array {
  const { along, across, stepAlong, stepAcross, minRun, thin } = axis;
  const long = new Uint8Array(gray.length);
  for (let c = 0; c < across; c++) {
    const base = c * stepAcross;
    let a = 0;
    while (a < along) {
      if (gray[base + a * stepAlong] >= RULE_INK) {
        a++;
        continue;
      }
      let last = a;
      let inked = 1;
      for (let e = a + 1; e < along && e - last <= thin; e++) {
        if (gray[base + e * stepAlong] < RULE_INK) {
          last = e;
          inked++;
        }
      }
      const run = last + 1 - a;
      if (run >= minRun && inked >= RULE_FILL * run) for (let k = a; k <= last; k++) long[base + k * stepAlong] = 1;
      a = last + 1;
    }
  }
  return long;
}

/** Whitens the long runs that are thin across and have paper (or a crossing rule) beyond them; how many such spans there were. */
function erase(source: Uint8Array, gray: Uint8Array, axis: Axis, long: Uint8Array, crossing: Uint8Array): number {
  let erased = 0;
  const { along, across, stepAlong, stepAcross, thin } = axis;
  const paper = (i: number) => source[i] >= RULE_INK || crossing[i] === 1;
  for (let a = 0; a < along; a++) {
    const base = a * stepAlong;
    let c = 0;
    while (c < across) {
      if (!long[base + c * stepAcross]) {
        c++;
        continue;
      }
      let end = c;
      while (end < across && long[base + end * stepAcross]) end++;
      const before = c - HALO - 1;
      const after = end + HALO;
      const clear = (before < 0 || paper(base + before * stepAcross)) && (after >= across || paper(base + after * stepAcross));
      if (end - c <= thin && clear) {
        for (let k = Math.max(0, c - HALO); k < Math.min(across, end + HALO); k++) gray[base + k * stepAcross] = 255;
        erased++;
      }
      c = end;
    }
  }
  return erased;
}
