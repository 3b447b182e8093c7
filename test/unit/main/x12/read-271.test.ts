import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { read271 } from '@src/main/x12/read-271';
import { X12FileError } from '@src/main/x12/x12-interchange';

/**
 * The 21 real and specimen 271s (copied byte for byte by scripts/copy-x12-fixtures.cjs).
 * The expected counts below are not the reader's: `segmentsOf` splits each file by its own
 * ISA delimiters and walks the HL levels, which is all it takes to know which loop an EB or
 * AAA belongs to.
 */
const DIR = path.resolve(__dirname, '../../../fixtures/x12-271');
const FILES = fs.readdirSync(DIR).filter((f) => f.endsWith('.x12')).sort();
const read = (file: string) => fs.readFileSync(path.join(DIR, file), 'utf8');

function segmentsOf(text: string): string[][] {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  const element = body[3];
  let at = 0;
  for (let n = 0; n < 16; n++) at = body.indexOf(element, at + 1);
  const terminator = body[at + 2];
  return body
    .split(terminator)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => s.split(element).map((e) => e.trim()));
}

const LEVELS: Record<string, [string, string]> = {
  '20': ['information_source', 'information_source'],
  '21': ['information_receiver', 'information_receiver'],
  '22': ['subscriber', 'subscriber_benefit'],
  '23': ['dependent', 'dependent_benefit'],
};

/** Per HL loop: its level, the NM1 name, EB count, and AAA codes with levels, as the file has them. */
function loopsOf(text: string) {
  const loops: { id: string; code: string; last?: string; first?: string; ebs: number; aaa: string[] }[] = [];
  const top = { id: '', code: '20', ebs: 0, aaa: [] as string[] };
  let current: (typeof loops)[number] | typeof top = top;
  let inBenefit = false;
  let inLs = false;
  for (const [tag, ...e] of segmentsOf(text)) {
    if (tag === 'HL') {
      current = { id: e[0], code: e[2], ebs: 0, aaa: [] };
      loops.push(current as (typeof loops)[number]);
      inBenefit = false;
    } else if (tag === 'EB') {
      current.ebs++;
      inBenefit = true;
    } else if (tag === 'AAA') current.aaa.push(`${e[2]}@${LEVELS[current.code][inBenefit ? 1 : 0]}`);
    else if (tag === 'LS') inLs = true;
    else if (tag === 'LE') inLs = false;
    else if (tag === 'NM1' && !inBenefit && !inLs && 'last' in current === false) Object.assign(current, { last: e[2] || undefined, first: e[3] || undefined });
  }
  return { top, loops };
}

describe('read271 on the 21 real and specimen files', () => {
  it('has all 21 files', () => {
    expect(FILES).toHaveLength(21);
  });

  it.each(FILES)('%s: parses; one benefit per EB of each person; AAA codes and levels as in the file', (file) => {
    const text = read(file);
    const answer = read271(file, text);
    const { top, loops } = loopsOf(text);
    const ebTotal = loops.reduce((n, l) => n + l.ebs, 0);
    expect(answer.eb_segments).toBe(ebTotal);
    // Every EB belongs to exactly one person: nothing dropped, nothing counted twice.
    expect(answer.people.reduce((n, p) => n + p.benefits.length, 0)).toBe(ebTotal);
    const people = loops.filter((l) => l.code === '22' || l.code === '23');
    for (const person of answer.people) {
      const loop = people.find((l) => (l.last ?? undefined) === person.last_name && (l.first ?? undefined) === person.first_name && l.code === (person.level === 'subscriber' ? '22' : '23'));
      expect(loop, `${file}: a loop for each person`).toBeDefined();
      expect(person.benefits).toHaveLength(loop!.ebs);
      // The person's errors: the payer's and provider's, then their subscriber's (for a dependent), then their own.
      const above = [top, ...loops.filter((l) => l.code === '20' || l.code === '21')].flatMap((l) => l.aaa);
      const subscriber = person.level === 'dependent' ? loops.filter((l) => l.code === '22' && loops.indexOf(l) < loops.indexOf(loop!)).at(-1)?.aaa ?? [] : [];
      expect(person.errors.map((e) => `${e.code}@${e.level}`)).toEqual([...above, ...subscriber, ...loop!.aaa]);
    }
    const fileLevel = [top, ...loops.filter((l) => l.code === '20' || l.code === '21')].flatMap((l) => l.aaa);
    expect(answer.errors.map((e) => `${e.code}@${e.level}`)).toEqual(fileLevel);
  });

  it('reads what each EB says, element by element (CMS HETS, 4010, "|" components)', () => {
    const [medicare] = read271('hets.x12', read('oophipaa_4010_Example3_CMS_HETS.x12')).people;
    expect(medicare).toMatchObject({ member_id: 'HICN', last_name: 'LNAME', first_name: 'FNAME', date_of_birth: '1920-04-01', payer: { name: 'CMS', id: 'CMS' } });
    // EB*B**47*MA**29*248**DY*30: a copay of $248 a day for hospital days, 30 days left.
    expect(medicare.benefits[4]).toEqual({
      code: 'co_payment',
      x12_code: 'B',
      service_types: ['hospital'],
      x12_service_type_codes: ['47'],
      insurance_type: 'MA',
      time_period: 'remaining',
      amount: '248',
      quantity: { qualifier: 'DY', value: '30' },
      in_network: 'unknown',
      messages: [],
    });
    // EB*D*IND**MB*********HC|90669 with its DTP.
    const procedure = medicare.benefits.find((b) => b.procedure?.code === '90669');
    expect(procedure).toMatchObject({ code: 'benefit_description', coverage_level: 'individual', insurance_type: 'MB', procedure: { qualifier: 'HC', code: '90669' }, dates: [{ qualifier: '348', start: '2009-04-06' }] });
    // MSG and the 2120 loop's entity stay with their EB.
    const home = medicare.benefits.find((b) => b.messages.includes('HHEH Start Date'));
    expect(home?.messages).toEqual(['HHEH Start Date', 'HHEH End Date', 'HHEH DOEBA', 'HHEH DOLBA']);
    expect(home?.related_entities).toEqual([{ code: 'PR', name: 'ORGNAME', id: 'CONTRACTNUMBER' }]);
  });

  it('splits 5010 repeated service types, keeps the plan description and network indicator', () => {
    const [smith] = read271('a.x12', read('oop_5010_Example_3_1_2.x12')).people;
    const copays = smith.benefits.filter((b) => b.code === 'co_payment');
    expect(copays.map((b) => [b.amount, b.in_network, b.plan_description, b.time_period, b.x12_service_type_codes?.length])).toEqual([
      ['10', 'yes', 'GOLD 123 PLAN', 'visit', 10],
      ['30', 'no', 'GOLD 123 PLAN', 'visit', 10],
    ]);
    expect(copays[0].service_types).toContain('professional_physician_visit_office');
  });

  it('writes ".3" as 0.3 and keeps a newline-terminated, BOM-prefixed file whole', () => {
    const [jane] = read271('d.x12', read('tigershark_271-dependent-benefits.x12')).people;
    expect(jane.benefits.find((b) => b.code === 'co_insurance' && b.in_network === 'no')?.percent).toBe('0.3');
    const tmhp = read271('t.x12', read('oop_4010_Example2_TMHP.x12'));
    expect(tmhp.people[0]).toMatchObject({ member_id: '444115555', date_of_birth: '1985-02-01' });
    expect(tmhp.people[0].benefits).toHaveLength(4);
  });
});

describe('read271 refuses bad files, naming the file and the reason', () => {
  const good = read('oop_5010_Example_3_1_2.x12');
  const refusal = (text: string) => {
    try {
      read271('bad.x12', text);
    } catch (error) {
      expect(error).toBeInstanceOf(X12FileError);
      expect((error as X12FileError).file).toBe('bad.x12');
      return (error as Error).message;
    }
    throw new Error('was not refused');
  };

  it('not X12', () => {
    expect(refusal('{"items": []}')).toBe('bad.x12: is not X12: it does not begin with an ISA segment');
    expect(refusal('')).toMatch(/^bad\.x12: is not X12/);
  });

  it('a 270 instead of a 271', () => {
    expect(refusal(good.replace('ST*271*', 'ST*270*'))).toBe('bad.x12: is a 270 (an eligibility request), not a 271 response');
  });

  it('a truncated file: cut inside a segment, or inside the ISA', () => {
    expect(refusal(good.slice(0, good.indexOf('EB*B') + 12))).toBe('bad.x12: is truncated: it ends inside a segment (EB) with no segment terminator');
    expect(refusal(good.slice(0, 60))).toMatch(/^bad\.x12: is truncated/);
  });

  it('a truncated file cut between segments, after a loop that promised more', () => {
    const cut = good.slice(0, good.indexOf('HL*3'));
    expect(refusal(cut)).toBe('bad.x12: is truncated: HL 2 says more loops follow, and none do');
  });

  it('a segment with too many elements', () => {
    expect(refusal(good.replace('DMG*D8*19630519*M', 'DMG*D8*19630519*M*1*2*3*4*5*6*7*8*9'))).toBe('bad.x12: has a DMG segment with 12 elements; X12 allows at most 11');
  });

  it('accepts a missing trailer (no SE, GE, IEA)', () => {
    const noTrailer = good.slice(0, good.indexOf('SE*22'));
    expect(read271('ok.x12', noTrailer).people[0].benefits).toHaveLength(5);
  });

  it('never puts the file’s content (PHI) in the reason', () => {
    const message = refusal(good.replace('DMG*D8*19630519*M', 'DMG*D8*19630519*M*1*2*3*4*5*6*7*8*9'));
    expect(message).not.toMatch(/SMITH|123456789|19630519/);
  });
});
