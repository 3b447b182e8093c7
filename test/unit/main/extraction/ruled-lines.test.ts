import { describe, expect, it } from 'vitest';
import { eraseRuledLines, withoutRuledLines } from '@src/main/extraction/ruled-lines';

const W = 600;
const H = 400;

function page(): Uint8Array {
  return new Uint8Array(W * H).fill(255);
}

function rect(gray: Uint8Array, x0: number, y0: number, w: number, h: number, value = 0): void {
  for (let y = y0; y < y0 + h; y++) gray.fill(value, y * W + x0, y * W + x0 + w);
}

/** A box's outline, `t` pixels thick: what a paper form prints around each field. */
function box(gray: Uint8Array, x0: number, y0: number, w: number, h: number, t = 2): void {
  rect(gray, x0, y0, w, t);
  rect(gray, x0, y0 + h - t, w, t);
  rect(gray, x0, y0, t, h);
  rect(gray, x0 + w - t, y0, t, h);
}

/** Letter-like strokes: a row of bars as tall as text and a few pixels wide, and a short crossbar. */
function word(gray: Uint8Array, x0: number, y0: number): void {
  for (let i = 0; i < 8; i++) rect(gray, x0 + i * 12, y0, 3, 24);
  rect(gray, x0, y0, 30, 3);
}

function ink(gray: Uint8Array, x0: number, y0: number, w: number, h: number): number {
  let n = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (gray[y * W + x] < 128) n++;
  return n;
}

describe('ruled lines of boxes and tables', () => {
  it("whitens a box's outline and keeps the text inside it", () => {
    const gray = page();
    box(gray, 40, 60, 300, 90);
    word(gray, 60, 100);
    const before = ink(gray, 60, 100, 96, 24);
    eraseRuledLines(gray, W, H);
    expect(ink(gray, 40, 60, 300, 4)).toBe(0);
    expect(ink(gray, 40, 60, 4, 90)).toBe(0);
    expect(ink(gray, 60, 100, 96, 24)).toBe(before);
  });

  it('whitens a rule broken by the scan or the JPEG, its short gaps bridged, and the soft grey beside it', () => {
    const gray = page();
    for (let x = 20; x < 580; x += 14) rect(gray, x, 200, 13, 2);
    rect(gray, 20, 199, 560, 1, 150);
    eraseRuledLines(gray, W, H);
    expect(ink(gray, 0, 195, W, 10)).toBe(0);
    expect(Math.min(...gray.subarray(199 * W + 20, 199 * W + 580))).toBe(255);
  });

  it('keeps a row of print whose letters merge into a long run only across their gaps (mostly paper, not a rule)', () => {
    const gray = page();
    for (let x = 20; x < 580; x += 7) rect(gray, x, 200, 4, 2);
    eraseRuledLines(gray, W, H);
    expect(ink(gray, 0, 200, W, 2)).toBe(2 * 4 * 80);
  });

  it('keeps a letter a scanner streak runs through, whole, and erases the streak on the paper either side', () => {
    const gray = page();
    word(gray, 250, 200);
    const letters = ink(gray, 250, 200, 96, 24);
    rect(gray, 0, 210, W, 2, 100);
    eraseRuledLines(gray, W, H);
    expect(ink(gray, 0, 205, 240, 10)).toBe(0);
    expect(ink(gray, 360, 205, 240, 10)).toBe(0);
    // Each stroke keeps its full height: the streak where it crosses a stroke is left.
    for (let i = 0; i < 8; i++) expect(ink(gray, 250 + i * 12, 200, 3, 24), `stroke ${i}`).toBe(3 * 24);
    expect(ink(gray, 250, 200, 96, 24)).toBeGreaterThanOrEqual(letters);
  });

  it('keeps a band thicker than a rule (a knockout header) and a short underline', () => {
    const gray = page();
    rect(gray, 0, 10, W, 40);
    rect(gray, 100, 300, 40, 2);
    const band = ink(gray, 0, 10, W, 40);
    eraseRuledLines(gray, W, H);
    expect(ink(gray, 0, 10, W, 40)).toBe(band);
    expect(ink(gray, 100, 300, 40, 2)).toBe(80);
  });

  it('keeps letters taller than a tenth of the side when their strokes are thick (a large logo)', () => {
    const gray = page();
    rect(gray, 300, 150, 12, 60);
    eraseRuledLines(gray, W, H);
    expect(ink(gray, 300, 150, 12, 60)).toBe(12 * 60);
  });

  it('gives a side with rules as a copy without them, and none for a side without any (nothing to read again)', () => {
    const ruled = page();
    box(ruled, 40, 60, 300, 90);
    word(ruled, 60, 100);
    const copy = withoutRuledLines({ gray: ruled, width: W, height: H, skew: 0 });
    expect(copy).toBeDefined();
    expect(ink(copy!.gray, 40, 60, 300, 4)).toBe(0);
    expect(ink(ruled, 40, 60, 300, 4)).toBeGreaterThan(0);
    const plain = page();
    word(plain, 60, 100);
    rect(plain, 0, 10, W, 40);
    expect(withoutRuledLines({ gray: plain, width: W, height: H, skew: 0 })).toBeUndefined();
  });
});
