import { describe, expect, it } from 'vitest';
import { createWedgeDetector } from '@src/renderer/src/intake/keyboard-wedge';

/** The AAMVA standard's example licence (Annex D), shortened to its first elements. */
const LICENCE = '@\n\x1e\rANSI 636000100002DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\nDBB06061986\nDBC1\rZVZVA01\r';

/** Types `text` into the detector, `gap` ms between keys (or per key); returns what each key did. */
function type(text: string, gap: number | ((index: number) => number), start = 1000) {
  const scans: string[] = [];
  const released: string[] = [];
  const passed: string[] = [];
  /** What reaches the field, in order: keys let through and keys put back. */
  const field: string[] = [];
  const d = createWedgeDetector(
    (t) => scans.push(t),
    (t) => {
      released.push(t);
      field.push(t);
    },
  );
  let at = start;
  let index = 0;
  for (const ch of text) {
    if (!d.key(ch, at)) {
      passed.push(ch);
      field.push(ch);
    }
    at += typeof gap === 'number' ? gap : gap(index++);
  }
  d.tick(at + 500);
  return { scans, released, passed: passed.join(''), field: field.join('') };
}

describe('keyboard-wedge scanner bursts', () => {
  it('a licence typed by a scanner (10 ms a key, its control characters as Enter) is held back whole and handed over', () => {
    const typed = LICENCE.replaceAll('\r', '\n').replaceAll('\x1e', '');
    const r = type(`${typed}\n`, 10);
    expect(r.scans).toEqual([typed.replace(/\n+$/, '')]);
    expect(r.passed).toBe('');
    expect(r.released).toEqual([]);
  });

  it("on a busy desk a scanner's keys arrive up to ~50 ms apart, its '@' (typed with Shift) 85 ms before the next, and a frame may stall it 200 ms: still one scan", () => {
    const typed = LICENCE.replaceAll('\r', '\n').replaceAll('\x1e', '');
    const r = type(`${typed}\n`, (i) => (i === 0 ? 85 : i === 40 ? 200 : i % 7 === 0 ? 50 : 12));
    expect(r.scans).toEqual([typed.replace(/\n+$/, '')]);
    expect(r.field).toBe('');
  });

  it('an shc:/ QR typed at 5 to 15 ms a key is one scan', () => {
    const r = type('shc:/56762909524320603460292437404460\n', 12);
    expect(r.scans).toEqual(['shc:/56762909524320603460292437404460']);
  });

  it('a person typing (120 ms a key) is never held: the keys that could start a scan are put back in order', () => {
    const r = type('shannon@example.org', 120);
    expect(r.scans).toEqual([]);
    expect(r.field).toBe('shannon@example.org');
    expect(r.released.length).toBeGreaterThan(0);
  });

  it('a fast burst that is not a barcode the desk reads (a password manager, a paste-like burst) reaches the field', () => {
    const r = type('sam smith', 8);
    expect(r.scans).toEqual([]);
    expect(r.field).toBe('sam smith');
  });
});
