import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CollectionCreate, type Collection, type EndOfDay } from '@src/shared/bridge/collection-contract';
import { centsFromDollars, collectionProblems, endOfDayCsv, looksLikeCardNumber, netCents, passesLuhn, totalsOf } from '@src/shared/collections';

const payment = (input: Record<string, unknown>) => CollectionCreate.parse({ taken_by: 'JD', patient_id: 'pat_1', method: 'cash', amount_cents: 4000, ...input });
const codes = (input: Record<string, unknown>, max: number | null = null) =>
  collectionProblems(payment(input), { estimate: max === null ? null : { max_cents: max } }).map((e) => [e.path, e.code]);

describe('card numbers (PAN) are refused', () => {
  it('spots 13–19 digits that pass Luhn, together or in groups, and nothing else', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(looksLikeCardNumber('4111111111111111')).toBe(true);
    expect(looksLikeCardNumber('ref 4111 1111 1111 1111 ok')).toBe(true);
    expect(looksLikeCardNumber('5500-0000-0000-0004')).toBe(true);
    expect(looksLikeCardNumber('378282246310005')).toBe(true); // Amex, 15 digits
    expect(looksLikeCardNumber('4222222222222')).toBe(true); // 13 digits
    expect(looksLikeCardNumber('4111111111111112')).toBe(false); // fails Luhn: a terminal's long reference
    expect(looksLikeCardNumber('TRM-88121')).toBe(false);
    expect(looksLikeCardNumber('424242424242')).toBe(false); // 12 digits passing Luhn: too short for a card
    expect(looksLikeCardNumber('42424242424242424242')).toBe(false); // 20 digits: too long for a card
  });

  it('in every free-text field of a collection', () => {
    expect(codes({ method: 'card', card_reference: '4111 1111 1111 1111' })).toEqual([['card_reference', 'card_number_refused']]);
    expect(codes({ method: 'check', check_number: '4111111111111111' })).toEqual([['check_number', 'card_number_refused']]);
    expect(codes({ reason: 'card 5500 0000 0000 0004 declined' })).toEqual([['reason', 'card_number_refused']]);
    expect(codes({ method: 'card', card_reference: 'AUTH 042117 / 8812' })).toEqual([]);
  });

  it('property: any Luhn-valid 13–19 digit number, however grouped, is refused', () => {
    const pan = fc
      .tuple(fc.integer({ min: 12, max: 18 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
      .map(([length, digits]) => {
        const body = digits.slice(0, length).join('');
        // The check digit that makes the whole pass Luhn.
        const check = [...Array(10).keys()].find((d) => passesLuhn(`${body}${d}`))!;
        return `${body}${check}`;
      });
    fc.assert(
      fc.property(pan, fc.constantFrom('', ' ', '-'), (number, separator) => {
        const grouped = number.replace(/(\d{4})(?=\d)/g, `$1${separator}`);
        expect(looksLikeCardNumber(`ref ${grouped}`)).toBe(true);
      }),
    );
  });
});

describe('amounts are whole cents above zero', () => {
  it('names each bad amount', () => {
    expect(codes({ amount_cents: 0 })).toEqual([['amount_cents', 'zero_amount']]);
    expect(codes({ amount_cents: -1 })).toEqual([['amount_cents', 'negative_amount']]);
    expect(codes({ amount_cents: 40.5 })).toEqual([['amount_cents', 'not_whole_cents']]);
    expect(codes({ amount_cents: 0.1 + 0.2 })).toEqual([['amount_cents', 'not_whole_cents']]);
    expect(codes({ amount_cents: undefined })).toEqual([['amount_cents', 'required']]);
    expect(codes({ amount_cents: 100_000_001 })).toEqual([['amount_cents', 'amount_too_large']]);
  });

  it('more than the estimate asks to be confirmed; a range is judged by its most; no estimate, no question', () => {
    expect(codes({ amount_cents: 4001 }, 4000)).toEqual([['amount_cents', 'over_estimate']]);
    expect(codes({ amount_cents: 4001, confirm_over_estimate: true }, 4000)).toEqual([]);
    expect(codes({ amount_cents: 4000 }, 4000)).toEqual([]);
    expect(codes({ amount_cents: 4001 }, null)).toEqual([]);
  });

  it('a declined or waived visit takes no money and no method', () => {
    expect(collectionProblems(CollectionCreate.parse({ kind: 'waived', taken_by: 'JD', patient_id: 'pat_1' }), { estimate: null })).toEqual([]);
    expect(collectionProblems(CollectionCreate.parse({ kind: 'declined', taken_by: 'JD', patient_id: 'pat_1', amount_cents: 500, method: 'cash' }), { estimate: null }).map((e) => e.code)).toEqual([
      'not_allowed',
      'not_allowed',
    ]);
  });

  it('reads dollars as typed into cents from the digits, never through a float', () => {
    expect(centsFromDollars('40')).toBe(4000);
    expect(centsFromDollars('$1,240.5')).toBe(124050);
    expect(centsFromDollars('0.29')).toBe(29); // 0.29 * 100 is 28.999… as a float
    expect(centsFromDollars('19.999')).toBeNull();
    expect(centsFromDollars('-5')).toBeNull();
    expect(centsFromDollars('forty')).toBeNull();
  });
});

const entry = (kind: Collection['kind'], amount: number, method: Collection['method']): Collection => ({
  id: `col_${kind}${amount}`,
  kind,
  amount_cents: amount,
  method,
  check_number: null,
  card_reference: null,
  taken_by: 'JD',
  desk: 'Front',
  source: 'dashboard',
  appointment_id: null,
  patient_id: 'pat_1',
  visit_date: '2026-11-23',
  date: '2026-11-23',
  estimate: null,
  voids_id: null,
  voided_by_id: null,
  reason: null,
  created_at: '2026-11-23T15:00:00.000Z',
});

describe('totals net of voids, in cents', () => {
  it('a void takes back exactly its payment, from the same method; marks count nothing', () => {
    const entries = [entry('payment', 4000, 'cash'), entry('payment', 1999, 'card'), entry('void', 1999, 'card'), entry('declined', 0, null), entry('payment', 1, 'check')];
    expect(entries.map(netCents)).toEqual([4000, 1999, -1999, 0, 1]);
    expect(totalsOf(entries)).toEqual({ collected_cents: 4001, by_method: { cash: 4000, check: 1, card: 0 } });
  });

  it('property: the sum is exact and by method adds up to the whole, whatever the amounts', () => {
    const one = fc.record({ kind: fc.constantFrom('payment' as const, 'void' as const), amount: fc.integer({ min: 1, max: 100_000_000 }), method: fc.constantFrom('cash' as const, 'check' as const, 'card' as const) });
    fc.assert(
      fc.property(fc.array(one, { maxLength: 200 }), (list) => {
        const totals = totalsOf(list.map((e) => entry(e.kind, e.amount, e.method)));
        expect(Number.isSafeInteger(totals.collected_cents)).toBe(true);
        expect(totals.by_method.cash + totals.by_method.check + totals.by_method.card).toBe(totals.collected_cents);
        expect(totals.collected_cents).toBe(list.reduce((sum, e) => sum + (e.kind === 'payment' ? e.amount : -e.amount), 0));
      }),
    );
  });

  it('the CSV carries the totals in dollars with two decimals, and quotes what a spreadsheet would run as a formula', () => {
    const report: EndOfDay = {
      date: '2026-11-23',
      practice_name: 'Elm Street Clinic',
      expected_min_cents: 5000,
      expected_max_cents: null,
      collected_cents: 4001,
      by_method: { cash: 4000, check: 1, card: 0 },
      by_desk: [],
      by_person: [{ name: '=HYPERLINK("x")', expected_min_cents: 0, expected_max_cents: 0, collected_cents: 4001, by_method: { cash: 4000, check: 1, card: 0 }, entries: 2 }],
      visits: [],
      entries: [entry('void', 1999, 'card')],
    };
    const csv = endOfDayCsv(report);
    expect(csv).toContain('"Collected (net of voids)","40.01"\r\n');
    expect(csv).toContain('"Expected (most)","open"\r\n');
    expect(csv).toContain('"person","\'=HYPERLINK(""x"")","0.00","0.00","40.01","40.00","0.01","0.00","2"\r\n');
    // A void is a plain negative number, not a defused formula.
    expect(csv).toContain('"void","-19.99","card"');
  });
});
