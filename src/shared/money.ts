/**
 * Amounts arrive as decimal strings ("1500.00"); sums are done in whole cents so no
 * cent is lost to floating point. Null when the text is not a plain decimal.
 */
export function centsFromDecimal(text: string | undefined): number | null {
  if (text === undefined) return null;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  // Half-up on the third decimal: payers occasionally send mills.
  const padded = `${fraction}000`;
  let cents = Number(whole) * 100 + Number(padded.slice(0, 2));
  if (Number(padded[2]) >= 5) cents += 1;
  return sign ? -cents : cents;
}

// One formatter made once: `toLocaleString` builds a new one per call, which a report of a
// thousand visits (several amounts each) paid for in a third of its render time.
// Made on first use, not as a page's script loads (issue 31: the first screen shows no amount).
let dollarsFormat: Intl.NumberFormat | undefined;
const DOLLARS = () => (dollarsFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }));

/** Cents as dollars: 150000 → "$1,500.00". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = DOLLARS().format(Math.floor(abs / 100));
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** A payer's decimal amount as the desk reads it ("20" → "$20.00"); what is not a plain decimal is shown as sent. */
export function formatAmount(text: string): string {
  const cents = centsFromDecimal(text);
  return cents === null ? text : formatCents(cents);
}

/** "0.2" → 0.2; null when not a number between 0 and 1. For display only: money is worked out with `basisPointsFromDecimal`. */
export function fractionFromDecimal(text: string | undefined): number | null {
  if (text === undefined) return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}

/**
 * A share sent as a decimal fraction ("0.2", "0.125") in whole hundredths of a percent
 * (2000, 1250), read from the digits so no share is off by a float's last bit; half-up past
 * the fourth decimal. Null when it is not a plain decimal between 0 and 1.
 */
export function basisPointsFromDecimal(text: string | undefined): number | null {
  if (text === undefined) return null;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  const padded = `${fraction}00000`;
  let points = Number(whole) * 10000 + Number(padded.slice(0, 4));
  if (Number(padded[4]) >= 5) points += 1;
  return points <= 10000 ? points : null;
}
