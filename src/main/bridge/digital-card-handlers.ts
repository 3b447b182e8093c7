import type { Db } from '../db/open-database';
import type { IssuerDirectory } from '../digital-card/issuer-directory';
import { eq } from 'drizzle-orm';
import { insurance_cards as insuranceCards } from '../db/schema';
import { answerWaitingLink, arrivedForCards, tieWaitingLink, waitingLinkResult } from '../digital-card/read-digital-card';
import type { WaitingLink } from '../digital-card/waiting-links';
import { digitalCardReading } from '../extraction/barcode-payload';
import { notFound } from '../../shared/service-error';
import type { NetworkPolicy } from '../digital-card/guarded-fetch';
import { refreshIssuers } from '../digital-card/refresh-issuers';
import type { Clock } from '../support/clock';
import { bytesOf } from './appointment-handlers';
import type { HandlersFor } from './handlers';

type DigitalCardMethods =
  | 'digitalCards.issuers'
  | 'digitalCards.importIssuers'
  | 'digitalCards.refreshIssuers'
  | 'digitalCards.waitingLink'
  | 'digitalCards.tieWaitingLink'
  | 'digitalCards.arrivedForCards'
  | 'digitalCards.answerWaitingLink';

export interface DigitalCardHandlerDeps {
  issuers: IssuerDirectory;
  network: NetworkPolicy;
  clock: Clock;
  db: Db;
}

/** Settings' "Digital cards": the trusted SMART Health Card issuers. */
export function digitalCardHandlers(deps: DigitalCardHandlerDeps): HandlersFor<DigitalCardMethods> {
  return {
    'digitalCards.issuers': async () => deps.issuers.view(),
    'digitalCards.importIssuers': async (input) => deps.issuers.importFile(new TextDecoder().decode(bytesOf(input))),
    'digitalCards.refreshIssuers': async () => ({ ...(await refreshIssuers(deps)), directory: deps.issuers.view() }),
    'digitalCards.waitingLink': async (input) => {
      const result = waitingLinkResult(deps.db, input.id);
      if (!result) throw notFound('waiting digital-card link', input.id);
      // Links are only ever read from QR codes or a scanner's typing of one.
      return digitalCardReading('qr', result);
    },
    'digitalCards.tieWaitingLink': async (input) => {
      if (!deps.db.select({ id: insuranceCards.id }).from(insuranceCards).where(eq(insuranceCards.id, input.card_id)).get()) throw notFound('insurance card', input.card_id);
      return tied(tieWaitingLink(deps.db, input.id, input.card_id));
    },
    'digitalCards.arrivedForCards': async (input) => {
      const result = arrivedForCards(deps.db, input.card_ids);
      return result ? digitalCardReading('qr', result) : null;
    },
    'digitalCards.answerWaitingLink': async (input) => tied(answerWaitingLink(deps.db, input.id, input.answer)),
  };
}

/** What the desk may see of a waiting link: never its payload (the link and its key). */
function tied(link: WaitingLink) {
  return { id: link.id, ...(link.card_id ? { card_id: link.card_id } : {}), ...(link.answer ? { answer: link.answer } : {}) };
}
