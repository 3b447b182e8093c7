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

/** "0.2" → 0.2; null when not a number between 0 and 1. */
export function fractionFromDecimal(text: string | undefined): number | null {
  if (text === undefined) return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}
