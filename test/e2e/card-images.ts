import { generateCards, type GeneratedCard } from '../../scripts/generate-cards';
import { planFor } from '@src/main/sandbox/benefits-builder';

let cached: Promise<GeneratedCard> | null = null;

/**
 * A generated card image (scripts/generate-cards.ts: no image is checked in) that a desk
 * photographs well — a flat scan — for a member the sandbox puts on a plan with copays,
 * so the summary has both a copay and a deductible to show.
 */
export function scannedCardWithCopay(): Promise<GeneratedCard> {
  cached ??= generateCards({ count: 24, seed: 7 }).then((cards) => {
    const card = cards.find((c) => c.style.capture === 'scan' && c.style.rotation_deg === 0 && planFor(c.truth.member_id).copay !== null && !/^(AAA|INACTIVE|CHERROR|PENDING)/i.test(c.truth.member_id));
    if (!card) throw new Error('No generated card fits: change the seed in test/e2e/card-images.ts');
    return card;
  });
  return cached;
}

let desk: Promise<GeneratedCard> | null = null;

/**
 * A phone photo of a card lying on a desk (scripts/generate-cards.ts, held-out styles: in
 * perspective on a textured desk beside a printed page), the card the desk meets most.
 */
export function cardOnDesk(): Promise<GeneratedCard> {
  desk ??= generateCards({ count: 4, seed: 7, styles: 'held-out' }).then((cards) => {
    const card = cards.find((c) => c.style.capture === 'desk' && c.style.layout === 'header-footer' && !/^(AAA|INACTIVE|CHERROR|PENDING)/i.test(c.truth.member_id));
    if (!card) throw new Error('No generated desk photo fits: change the seed in test/e2e/card-images.ts');
    return card;
  });
  return desk;
}
