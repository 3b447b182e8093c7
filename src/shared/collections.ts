import type { FieldError } from './contract';
import type { Collection, CollectionCreateParsed, EndOfDay, MethodTotals, PaymentMethod } from './bridge/collection-contract';
import { csvCell } from './csv';
import { formatCents } from './money';

/**
 * The rules of a collection at the window (issue 30, item 3), pure so the desk's form and
 * the host say the same thing: amounts are whole cents above zero, a card is named by the
 * terminal's reference and never by its number, and a payment above the estimate needs the
 * desk's say-so. Shared by the host (which refuses) and the renderer (which warns early).
 */

/** A million dollars: anything above is a typo (cents typed as dollars). */
export const MAX_COLLECTION_CENTS = 100_000_000;

/** Luhn's check digit test, on digits only. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Whether text holds what looks like a card number (a PAN): 13 to 19 digits, written
 * together or in groups split by spaces or dashes, that pass Luhn. Storing one would put the
 * desk in PCI scope, so it is refused wherever the desk types free text about a payment.
 */
export function looksLikeCardNumber(text: string): boolean {
  for (const match of text.matchAll(/\d(?:[ -]?\d)*/g)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)) return true;
  }
  return false;
}

/**
 * Dollars as the desk types them ("40", "40.5", "$1,240.00") in whole cents, read from the
 * digits (never through a float); null when it is not a dollar amount with at most two decimals.
 */
export function centsFromDollars(text: string): number | null {
  const plain = text.trim().replace(/^\$/, '').replace(/,(?=\d{3}(\D|$))/g, '');
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

export function cardNumberRefused(field: string): FieldError {
  return { path: field, code: 'card_number_refused', message: `${field} looks like a card number: never record a card number; use the card terminal's reference for the sale.` };
}

/** What a collection is checked against besides itself: the estimate shown, when there was one. */
export interface CollectionContext {
  estimate: { max_cents: number | null } | null;
}

/** Every problem with a collection, each naming its field; empty when it may be written. */
export function collectionProblems(input: CollectionCreateParsed, context: CollectionContext): FieldError[] {
  const errors: FieldError[] = [];
  const bad = (path: string, code: string, message: string) => errors.push({ path, code, message });
  const amount = input.amount_cents;
  if (input.kind === 'payment') {
    if (amount === undefined) bad('amount_cents', 'required', 'amount_cents is required: the amount taken, in whole cents (4000 for $40.00).');
    else if (!Number.isFinite(amount) || !Number.isInteger(amount)) bad('amount_cents', 'not_whole_cents', 'amount_cents must be a whole number of cents (4000 for $40.00), not a fraction of a cent.');
    else if (amount < 0) bad('amount_cents', 'negative_amount', 'amount_cents must be more than zero: money given back is a void of the payment.');
    else if (amount === 0) bad('amount_cents', 'zero_amount', 'amount_cents must be more than $0.00: where nothing was collected, mark the visit declined or waived.');
    else if (amount > MAX_COLLECTION_CENTS) bad('amount_cents', 'amount_too_large', `amount_cents must be at most ${MAX_COLLECTION_CENTS} (${formatCents(MAX_COLLECTION_CENTS)}): check the amount is in cents.`);
    else {
      const max = context.estimate?.max_cents;
      if (max !== undefined && max !== null && amount > max && input.confirm_over_estimate !== true) {
        bad(
          'amount_cents',
          'over_estimate',
          `amount_cents ${formatCents(amount)} is more than the estimate (${formatCents(max)}): confirm it (confirm_over_estimate: true) or correct the amount.`,
        );
      }
    }
    if (!input.method) bad('method', 'required', 'method is required: cash, check or card.');
    if (input.method === 'check' && !input.check_number) bad('check_number', 'required', 'check_number is required for a check: the number printed on it.');
    if (input.method === 'card' && !input.card_reference) bad('card_reference', 'required', "card_reference is required for a card: the card terminal's reference for the sale (never the card number).");
    if (input.method !== 'check' && input.check_number) bad('check_number', 'not_allowed', 'check_number is only for method check.');
    if (input.method !== 'card' && input.card_reference) bad('card_reference', 'not_allowed', 'card_reference is only for method card.');
  } else {
    if (amount !== undefined && amount !== 0) bad('amount_cents', 'not_allowed', `amount_cents must be 0 or left out when the visit is marked ${input.kind}: nothing was collected.`);
    for (const field of ['method', 'check_number', 'card_reference'] as const) {
      if (input[field] !== undefined) bad(field, 'not_allowed', `${field} is only for a payment: a visit marked ${input.kind} took no money.`);
    }
  }
  for (const field of ['card_reference', 'check_number', 'reason', 'taken_by', 'visit_type'] as const) {
    const text = input[field];
    if (text && looksLikeCardNumber(text)) errors.push(cardNumberRefused(field));
  }
  if (!input.appointment_id && !input.patient_id && !input.check_id) {
    bad('appointment_id', 'visit_required', "Name the visit: appointment_id, or patient_id (with visit_date, else today), or the check_id of the patient's check.");
  }
  return errors;
}

/** The signed effect of each entry on what was collected: a payment adds, its void takes the same away. */
export function netCents(entry: Pick<Collection, 'kind' | 'amount_cents'>): number {
  if (entry.kind === 'payment') return entry.amount_cents;
  if (entry.kind === 'void') return -entry.amount_cents;
  return 0;
}

export const noMethods = (): MethodTotals => ({ cash: 0, check: 0, card: 0 });

/** Net collected in all and by method; a void counts against the method of the payment it undoes (it carries it). */
export function totalsOf(entries: Pick<Collection, 'kind' | 'amount_cents' | 'method'>[]): { collected_cents: number; by_method: MethodTotals } {
  const by_method = noMethods();
  let collected = 0;
  for (const entry of entries) {
    const cents = netCents(entry);
    collected += cents;
    if (entry.method) by_method[entry.method as PaymentMethod] += cents;
  }
  return { collected_cents: collected, by_method };
}

/** Dollars with two decimals and no thousands separator, so a spreadsheet reads a number. */
const dollars = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/**
 * The end-of-day report as CSV: the totals, then one line per visit, then every entry (voids
 * included), so the billing office can tie the drawer to the visits without the screen.
 */
export function endOfDayCsv(report: EndOfDay): string {
  const lines: string[][] = [
    ['End of day', report.date, report.practice_name ?? ''],
    ['Expected (least)', dollars(report.expected_min_cents)],
    ['Expected (most)', report.expected_max_cents === null ? 'open' : dollars(report.expected_max_cents)],
    ['Collected (net of voids)', dollars(report.collected_cents)],
    ['Cash', dollars(report.by_method.cash)],
    ['Check', dollars(report.by_method.check)],
    ['Card', dollars(report.by_method.card)],
    [],
    ['Group', 'Name', 'Expected (least)', 'Expected (most)', 'Collected', 'Cash', 'Check', 'Card', 'Entries'],
    ...(['desk', 'person'] as const).flatMap((kind) =>
      (kind === 'desk' ? report.by_desk : report.by_person).map((g) => [
        kind,
        g.name,
        dollars(g.expected_min_cents),
        g.expected_max_cents === null ? 'open' : dollars(g.expected_max_cents),
        dollars(g.collected_cents),
        dollars(g.by_method.cash),
        dollars(g.by_method.check),
        dollars(g.by_method.card),
        String(g.entries),
      ]),
    ),
    [],
    ['Time', 'Patient', 'Visit type', 'Estimate (least)', 'Estimate (most)', 'Collected', 'Status', 'Reason'],
    ...report.visits.map((v) => [
      v.time ?? '',
      v.name,
      v.visit_type ?? '',
      v.estimate ? dollars(v.estimate.min_cents) : '',
      v.estimate ? (v.estimate.max_cents === null ? 'open' : dollars(v.estimate.max_cents)) : '',
      dollars(v.collected_cents),
      v.status,
      v.reason ?? '',
    ]),
    [],
    ['Entry', 'Recorded at', 'Kind', 'Amount', 'Method', 'Check number', 'Card reference', 'Taken by', 'Desk', 'Voids', 'Reason'],
    ...report.entries.map((e) => [
      e.id,
      e.created_at,
      e.kind,
      dollars(netCents(e)),
      e.method ?? '',
      e.check_number ?? '',
      e.card_reference ?? '',
      e.taken_by,
      e.desk,
      e.voids_id ?? '',
      e.reason ?? '',
    ]),
  ];
  return `${lines.map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
