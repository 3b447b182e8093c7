import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cardData, FAMILIES, familiesOf, MBI_SHAPE, paintFamily, payerPools, renderFamily, rngFrom, type CardTruth, type Family } from '../../../scripts/card-families';
import { generateCards, writeCardSet } from '../../../scripts/generate-cards';
import { directoryEntities } from '@src/shared/payers/payer-directory';

const fonts = ['Liberation Sans', 'DejaVu Sans'];
const directoryNames = new Set(directoryEntities().map((e) => e.name));

/** A family's card face and truth, without the capture (fast: no photo, no JPEG). */
function face(family: Family, seed: number): CardTruth {
  const r = rngFrom(seed);
  const d = cardData(r, family.kind, fonts);
  renderFamily(family, r, d);
  return d.truth;
}

describe('the card generator: layout families', () => {
  it('declares at least 30 named families, at least 10 of them held out, each name in one split only', () => {
    expect(FAMILIES.length).toBeGreaterThanOrEqual(30);
    const tuning = familiesOf('tuning').map((f) => f.name);
    const heldOut = familiesOf('held-out').map((f) => f.name);
    expect(heldOut.length).toBeGreaterThanOrEqual(10);
    expect(tuning.length + heldOut.length).toBe(FAMILIES.length);
    expect(new Set(FAMILIES.map((f) => f.name)).size).toBe(FAMILIES.length);
    expect(tuning.filter((n) => heldOut.includes(n))).toEqual([]);
    for (const f of FAMILIES) expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('tunes on the kinds of print the unseen real cards showed (issue 25): bilingual captions, a notice by the name, plan codes, a logo-only payer with its website, copays beside the Rx block', () => {
    const printed = familiesOf('tuning').flatMap((family) =>
      [1, 2, 3].map((seed) => {
        const r = rngFrom(seed * 17 + family.name.length);
        const d = cardData(r, family.kind, fonts);
        return { drawn: paintFamily(family, r, d).drawn, website: d.payer.website };
      }),
    );
    const some = (test: (card: (typeof printed)[number]) => boolean) => printed.some(test);
    expect(some((c) => c.drawn.some((t) => /^Nombre( del miembro)? \/ (Member )?Name$|^Name \/ Nombre$/.test(t)))).toBe(true);
    expect(some((c) => c.drawn.some((t) => /prior approval|referral .* required/i.test(t)))).toBe(true);
    expect(some((c) => c.drawn.some((t) => /^Plan Codes [A-Z]+ \d{3} [A-Z]+ \d{3}$/.test(t)))).toBe(true);
    // The website printed on its own line, the name only in the logo.
    expect(some((c) => c.drawn.includes(c.website))).toBe(true);
    // A copay amount on a row of the Rx block: the same card prints both.
    expect(some((c) => c.drawn.some((t) => /^RxGRP|^Rx Group|^RXGRP|^RxGrp/.test(t)) && c.drawn.some((t) => /^\$\d+$/.test(t)))).toBe(true);
  });

  it('tunes on the kinds the world prints that the first tuning families lacked (issue 25 item 4): a card on a paper form in boxes, a portal-printed temporary card, an employer-branded card with a watermark and vertical text, a Medigap card', () => {
    const tuning = familiesOf('tuning');
    const cards = tuning.map((family) => {
      const r = rngFrom(41 + family.name.length);
      const d = cardData(r, family.kind, fonts);
      return { family, drawn: paintFamily(family, r, d).drawn, employer: d.employer, truth: d.truth };
    });
    const some = (test: (card: (typeof cards)[number]) => boolean) => cards.some(test);
    expect(some((c) => /paper form/.test(c.family.models) && c.drawn.includes('EFFECTIVE DATE'))).toBe(true);
    expect(some((c) => c.drawn.some((t) => /^https:\/\/member\..*\/print$/.test(t)) && c.drawn.some((t) => /temporary/i.test(t)))).toBe(true);
    expect(some((c) => c.drawn[0] === c.employer.split(/\s+/).map((w) => w[0]).join('') && c.drawn.includes('Administered by'))).toBe(true);
    expect(some((c) => /^(Medicare Supplement|Medigap)/.test(c.truth.plan_name) && c.truth.rx_bin === '')).toBe(true);
  });

  it('holds out whole kinds of card: dental and vision cards are never in the tuning split', () => {
    const tuningKinds = new Set(familiesOf('tuning').map((f) => f.kind));
    expect(tuningKinds.has('dental')).toBe(false);
    expect(tuningKinds.has('vision')).toBe(false);
    const heldKinds = new Set(familiesOf('held-out').map((f) => f.kind));
    expect(heldKinds.has('dental') && heldKinds.has('vision')).toBe(true);
  });

  it('draws payers from the directory by kind, far beyond the eight seed brands', () => {
    const pools = payerPools();
    for (const kind of ['commercial', 'blue', 'medicare', 'advantage', 'medicaid', 'dental', 'vision'] as const) expect(pools[kind].length, kind).toBeGreaterThan(3);
    expect(pools.commercial.length).toBeGreaterThan(100);
    for (const blue of pools.blue) expect(blue.name).toMatch(/blue|bcbs/i);
  });

  it('keeps the truth to what each card prints, in the shapes the standards give', () => {
    for (const family of FAMILIES) {
      for (let seed = 1; seed <= 6; seed++) {
        const truth = face(family, seed * 31 + family.name.length);
        const where = `${family.name} seed ${seed}`;
        expect(truth.member_id, where).not.toBe('');
        expect(truth.member_name, where).toMatch(/^[A-Z]+( [A-Z])? [A-Z]+$/);
        if (family.kind === 'medicare') {
          expect(truth.member_id, where).toMatch(MBI_SHAPE);
          expect(truth.payer_name, where).toBe('Medicare');
          expect(truth.group_number + truth.rx_bin + truth.plan_name, where).toBe('');
        } else if (family.kind === 'pbm') {
          // A pharmacy-only card names its PBM: no medical payer, no medical group number.
          expect(truth.payer_name, where).toBe('');
          expect(truth.group_number, where).toBe('');
          expect(truth.rx_bin, where).toMatch(/^\d{6}$/);
        } else {
          expect(directoryNames.has(truth.payer_name), `${where}: ${truth.payer_name}`).toBe(true);
        }
        if (family.kind === 'blue') expect(truth.member_id, where).toMatch(/^[A-Z]{3}[A-Z0-9]\d{7,8}$/);
        if (family.kind === 'dental' || family.kind === 'vision') expect(truth.rx_bin + truth.rx_pcn + truth.rx_group, where).toBe('');
        if (truth.rx_bin) expect(truth.rx_bin, where).toMatch(/^\d{6}$/);
      }
    }
  }, 60_000);

  it('never matches a seed brand only: several held-out cards of a set name different directory payers', () => {
    const payers = new Set(familiesOf('held-out').map((f, i) => face(f, 900 + i).payer_name));
    expect(payers.size).toBeGreaterThanOrEqual(8);
  });

  it('generateCards({ families }) gives card i family i mod N, records it, and the same seed gives the same cards', async () => {
    const heldOut = familiesOf('held-out');
    const n = heldOut.length;
    const cards = await generateCards({ families: 'held-out', count: n + 1, seed: 11 });
    cards.forEach((card, i) => expect(card.style.family).toBe(heldOut[i % n].name));
    const again = await generateCards({ families: 'held-out', count: 2, seed: 11 });
    expect(again.map((c) => c.bytes.equals(cards[again.indexOf(c)].bytes))).toEqual([true, true]);
    expect(again.map((c) => c.truth)).toEqual(cards.slice(0, 2).map((c) => c.truth));
    const other = await generateCards({ families: 'tuning', count: 2, seed: 11 });
    expect(other.map((c) => familiesOf('tuning').some((f) => f.name === c.style.family))).toEqual([true, true]);
    // Among the captures: a CMYK JPEG, as some scanners and print shops write.
    const cmyk = cards.find((c) => c.style.capture === 'cmyk');
    expect(cmyk).toBeDefined();
    expect((await sharp(cmyk!.bytes).metadata()).space).toBe('cmyk');
  }, 120_000);

  it('writes the layout family of each card into truth.json', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'card-families-'));
    try {
      await writeCardSet(dir, { families: 'tuning', count: 1, seed: 3 });
      const [entry] = JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8')) as { file: string; family: string }[];
      expect(entry.family).toBe(familiesOf('tuning')[0].name);
      expect(fs.existsSync(path.join(dir, entry.file))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
