export { centsFromDecimal } from '../../../shared/money';

/** "0.2" → 0.2; null when not a number between 0 and 1. */
export function fractionFromDecimal(text: string | undefined): number | null {
  if (text === undefined) return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}
