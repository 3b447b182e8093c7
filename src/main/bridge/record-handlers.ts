import type { CallContext, ServiceType, V1Service } from '../../shared/contract';
import type { HandlersFor } from './handlers';

/** The desk's channel: everything the renderer creates is `dashboard`. */
const DESK: CallContext = { source: 'dashboard' };

type RecordMethod =
  | `patients.${'create' | 'get' | 'list'}`
  | `photos.${'upload' | 'read'}`
  | `cards.${'create' | 'get' | 'list'}`
  | `extractions.${'create' | 'get'}`
  | `discoveries.${'create' | 'get' | 'list'}`
  | `checks.${'create' | 'get' | 'list'}`
  | 'providers.list'
  | 'clearinghouseEntities.list';

/**
 * The /v1 records through the desk's channel: each a thin call into the host's service.
 * A discovery asks its checks about the practice's default service type unless told.
 */
export function recordHandlers({ service, defaultServiceType }: { service: V1Service; defaultServiceType?: () => ServiceType | null }): HandlersFor<RecordMethod> {
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

    'discoveries.create': ({ insurance_card_id, service_type }) => {
      const asked = service_type ?? defaultServiceType?.() ?? undefined;
      return service.create('electronic_eligibility_discoveries', { insurance_card_id, source: 'dashboard', ...(asked ? { service_type: asked } : {}) }, DESK);
    },
    'discoveries.get': ({ id }) => service.get('electronic_eligibility_discoveries', id),
    'discoveries.list': (params) => service.list('electronic_eligibility_discoveries', params),

    'checks.create': (input) => service.create('electronic_eligibility_checks', input, DESK),
    'checks.get': ({ id }) => service.get('electronic_eligibility_checks', id),
    'checks.list': (params) => service.list('electronic_eligibility_checks', params),

    'providers.list': (params) => service.list('providers', params),
    'clearinghouseEntities.list': (params) => service.list('clearinghouse_entities', params),
  };
}
