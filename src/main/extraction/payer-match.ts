import type { ClearinghouseEntity } from '../../shared/contract';

export interface PayerMatch {
  entity: ClearinghouseEntity;
  /** Share of the entity's name found on the card, 0..1, lowered for misread letters. */
  score: number;
}

/** Words that say nothing about which payer it is. */
const FILLER = new Set(['of', 'the', 'and', 'inc', 'co', 'company', 'corp', 'llc', 'plan', 'plans']);

function letters(text: string): string {
  return text.toLowerCase().replace(/[^a-z]/g, '');
}

/** Whether `needle` occurs in `hay` with at most `k` edits (Sellers' approximate search). */
function approxIncludes(hay: string, needle: string, k: number): number | null {
  if (hay.includes(needle)) return 0;
  if (k === 0) return null;
  let previous = new Array<number>(hay.length + 1).fill(0);
  for (let i = 1; i <= needle.length; i++) {
    const current = new Array<number>(hay.length + 1);
    current[0] = i;
    for (let j = 1; j <= hay.length; j++) {
      const cost = needle[i - 1] === hay[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  const best = Math.min(...previous);
  return best <= k ? best : null;
}

/**
 * Which known clearinghouse entity the card belongs to, from its printed text. Payers
 * print their names in their own way ("BlueCross BlueShield of Texas", "UNITED
 * HEALTHCARE", "aetna"), so names are compared as letters only, word by word, allowing
 * one misread letter in longer words. The first word (the brand) must be there.
 */
export function matchPayer(text: string, entities: readonly ClearinghouseEntity[]): PayerMatch | null {
  const hay = letters(text);
  let best: PayerMatch | null = null;
  for (const entity of entities) {
    const words = entity.name
      .split(/[^A-Za-z]+/)
      .map(letters)
      .filter((w) => w.length > 0 && !FILLER.has(w));
    if (words.length === 0) continue;
    // "UnitedHealthcare" is printed "United Healthcare" as often as not: try it whole too.
    const whole = words.join('');
    let found = 0;
    let total = 0;
    let brandFound = false;
    words.forEach((word, i) => {
      total += word.length;
      const edits = approxIncludes(hay, word, word.length >= 5 ? 1 : 0);
      if (edits === null) return;
      found += word.length * (edits === 0 ? 1 : 0.85);
      if (i === 0) brandFound = true;
    });
    const wholeEdits = whole.length >= 8 ? approxIncludes(hay, whole, Math.floor(whole.length / 8)) : null;
    let score = found / total;
    if (wholeEdits !== null) {
      score = Math.max(score, 1 - (0.15 * wholeEdits) / Math.max(1, whole.length / 8));
      brandFound = true;
    }
    if (!brandFound || score < 0.5) continue;
    // Prefer the longer name when one is inside another ("Aetna" vs "Aetna Better Health").
    if (!best || score > best.score || (score === best.score && total > letters(best.entity.name).length)) best = { entity, score };
  }
  return best;
}
