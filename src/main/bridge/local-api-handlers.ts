import type { IntegrationTokens } from '../local-api/integration-tokens';
import type { LocalApi } from '../local-api/local-api';
import type { HandlersFor } from './handlers';

type LocalApiMethods = 'localApi.status' | 'localApi.regenerateToken' | 'localApi.integrations' | 'localApi.addIntegration' | 'localApi.revokeIntegration';

/** Settings shows the local API's state, address and token, can replace it, and names integrations. */
export function localApiHandlers({ localApi, integrations }: { localApi: LocalApi; integrations: IntegrationTokens }): HandlersFor<LocalApiMethods> {
  return {
    'localApi.status': async () => localApi.status(),
    'localApi.regenerateToken': async () => localApi.regenerateToken(),
    'localApi.integrations': async () => integrations.list(),
    'localApi.addIntegration': async (input) => integrations.add(input),
    'localApi.revokeIntegration': async (input) => integrations.revoke(input),
  };
}
