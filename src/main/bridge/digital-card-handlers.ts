import type { IssuerDirectory } from '../digital-card/issuer-directory';
import type { NetworkPolicy } from '../digital-card/guarded-fetch';
import { refreshIssuers } from '../digital-card/refresh-issuers';
import type { Clock } from '../support/clock';
import { bytesOf } from './appointment-handlers';
import type { HandlersFor } from './handlers';

type DigitalCardMethods = 'digitalCards.issuers' | 'digitalCards.importIssuers' | 'digitalCards.refreshIssuers';

export interface DigitalCardHandlerDeps {
  issuers: IssuerDirectory;
  network: NetworkPolicy;
  clock: Clock;
}

/** Settings' "Digital cards": the trusted SMART Health Card issuers. */
export function digitalCardHandlers(deps: DigitalCardHandlerDeps): HandlersFor<DigitalCardMethods> {
  return {
    'digitalCards.issuers': async () => deps.issuers.view(),
    'digitalCards.importIssuers': async (input) => deps.issuers.importFile(new TextDecoder().decode(bytesOf(input))),
    'digitalCards.refreshIssuers': async () => ({ ...(await refreshIssuers(deps)), directory: deps.issuers.view() }),
  };
}
