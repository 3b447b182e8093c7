import type { Db } from '../db/open-database';
import type { IssuerDirectory } from '../digital-card/issuer-directory';
import { waitingLinkResult } from '../digital-card/read-digital-card';
import { digitalCardReading } from '../extraction/barcode-payload';
import { notFound } from '../../shared/service-error';
import type { NetworkPolicy } from '../digital-card/guarded-fetch';
import { refreshIssuers } from '../digital-card/refresh-issuers';
import type { Clock } from '../support/clock';
import { bytesOf } from './appointment-handlers';
import type { HandlersFor } from './handlers';

type DigitalCardMethods = 'digitalCards.issuers' | 'digitalCards.importIssuers' | 'digitalCards.refreshIssuers' | 'digitalCards.waitingLink';

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
  };
}
