import type { LocalApi } from '../local-api/local-api';
import type { HandlersFor } from './handlers';

/** Settings shows the local API's state, address and token, and can replace the token. */
export function localApiHandlers({ localApi }: { localApi: LocalApi }): HandlersFor<'localApi.status' | 'localApi.regenerateToken'> {
  return {
    'localApi.status': async () => localApi.status(),
    'localApi.regenerateToken': async () => localApi.regenerateToken(),
  };
}
