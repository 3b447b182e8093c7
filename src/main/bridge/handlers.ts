import type { BridgeMethod, BridgeOutput, BridgeParsedInput } from '../../shared/bridge/contract';
import type { CallContext, V1Service } from '../../shared/contract';
import type { Db } from '../db/open-database';
import { listInboxItems, resolveInboxItem } from '../inbox/inbox-store';

export type BridgeHandlers = {
  [M in BridgeMethod]: (input: BridgeParsedInput<M>) => Promise<BridgeOutput<M>>;
};

export interface BridgeHandlerDeps {
  service: V1Service;
  db: Db;
}

/** The desk's channel: everything the renderer creates is `dashboard`. */
const DESK: CallContext = { source: 'dashboard' };

/** One handler per bridge method, grouped by domain; each is a thin call into the host. */
export function createBridgeHandlers({ service, db }: BridgeHandlerDeps): BridgeHandlers {
  return {
    'patients.create': (input) => service.create('patients', input, DESK),
    'patients.get': ({ id }) => service.get('patients', id),
    'patients.list': (params) => service.list('patients', params),

    'photos.upload': ({ content_type, data_base64 }) =>
      service.uploadPhoto({ content_type, bytes: new Uint8Array(Buffer.from(data_base64, 'base64')) }),
    'photos.read': async ({ object_key }) => {
      const photo = await service.readPhoto(object_key);
      return { content_type: photo.content_type, data_base64: Buffer.from(photo.bytes).toString('base64') };
    },

    'cards.create': (input) => service.create('insurance_cards', input, DESK),
    'cards.get': ({ id }) => service.get('insurance_cards', id),
    'cards.list': (params) => service.list('insurance_cards', params),

    'extractions.create': (input) => service.create('extractions', input, DESK),
    'extractions.get': ({ id }) => service.get('extractions', id),

    'discoveries.create': ({ insurance_card_id }) =>
      service.create('electronic_eligibility_discoveries', { insurance_card_id, source: 'dashboard' }, DESK),
    'discoveries.get': ({ id }) => service.get('electronic_eligibility_discoveries', id),
    'discoveries.list': (params) => service.list('electronic_eligibility_discoveries', params),

    'checks.create': (input) => service.create('electronic_eligibility_checks', input, DESK),
    'checks.get': ({ id }) => service.get('electronic_eligibility_checks', id),
    'checks.list': (params) => service.list('electronic_eligibility_checks', params),

    'inbox.list': async ({ state }) => ({ data: listInboxItems(db, state) }),
    'inbox.resolve': async (input) => resolveInboxItem(db, input),

    'providers.list': (params) => service.list('providers', params),
    'clearinghouseEntities.list': (params) => service.list('clearinghouse_entities', params),
  };
}
