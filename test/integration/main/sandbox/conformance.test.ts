import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { describeV1Conformance } from '@test/support/v1-conformance';
import { startTestSandbox } from '@test/support/sandbox-fixture';

describeV1Conformance('sandbox over loopback TCP', async () => {
  const fx = await startTestSandbox();
  return {
    target: { baseUrl: fx.sandbox.url },
    apiKey: fx.sandbox.apiKey,
    providerId: SEED_PROVIDERS[0].id,
    clearinghouseEntityId: SEED_CLEARINGHOUSE_ENTITIES[0].id,
    source: 'api',
    changesFeed: true,
    snapshot: fx.snapshot,
    close: fx.close,
  };
});
