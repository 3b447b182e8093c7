import { afterEach, describe, expect, it } from 'vitest';
import type { SyncStatus } from '@src/shared/bridge/desk-contract';
import { SyncState } from '@src/shared/contract/common';
import { DEFAULT_NETWORK_POLICY } from '@src/main/digital-card/guarded-fetch';
import { createIssuerDirectory } from '@src/main/digital-card/issuer-directory';
import { createIssuerRefresher, ISSUER_REFRESH_EVERY_MS } from '@src/main/digital-card/issuer-refresher';
import { createEventHub } from '@src/main/support/event-hub';
import { repoTestIssuer } from '@test/support/digital-card-issuer';
import { openDigitalCardDb } from '@test/support/digital-card-db';
import { manualClock } from '@test/support/manual-clock';
import { startShlinkServer } from '@test/support/shlink-server';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const status = (online: boolean | null): SyncStatus => ({
  online,
  mode: 'sandbox',
  upstream_url: null,
  counts: Object.fromEntries(SyncState.options.map((state) => [state, 0])) as SyncStatus['counts'],
  last_sync_at: null,
  worker: 'running',
  storage: 'ok',
});

// Issue 27, item 2: the trusted issuers are refreshed from their directories when the desk is
// online, by themselves: once it comes online, then once a day.
describe('the trusted-issuer refresher', () => {
  it('refreshes when the desk comes online, not again within the day, and again after it', async () => {
    const server = await startShlinkServer();
    cleanups.push(() => server.close());
    const db = openDigitalCardDb();
    cleanups.push(() => db.close());
    const clock = manualClock('2026-11-23T09:00:00.000Z');
    const issuer = repoTestIssuer();
    const iss = `${server.origin}/issuer`;
    server.files.set('/directory.json', JSON.stringify({ participating_issuers: [{ iss, name: 'Directory issuer' }] }));
    server.files.set('/issuer/.well-known/jwks.json', JSON.stringify({ keys: [issuer.jwk] }));
    const directoryReads = () => server.requests.filter((request) => request.path === '/directory.json').length;
    const issuers = createIssuerDirectory({ db: db.opened.db, clock });
    issuers.upsert([], [`${server.origin}/directory.json`]);
    const events = createEventHub();
    const logged: string[] = [];
    const refresher = createIssuerRefresher({
      refresh: { issuers, network: { ...DEFAULT_NETWORK_POLICY, allowOrigin: server.origin }, clock },
      events,
      log: (event) => void logged.push(event),
    });
    await refresher.start?.();
    cleanups.push(() => refresher.stop?.());

    // Offline, or not yet known: nothing is fetched.
    events.emit('sync.status', status(null));
    events.emit('sync.status', status(false));
    expect(await refresher.settled()).toBeNull();
    expect(directoryReads()).toBe(0);

    events.emit('sync.status', status(true));
    expect(await refresher.settled()).toEqual({ refreshed: 1, failures: [], offline: false });
    expect(issuers.view().issuers).toMatchObject([{ iss, name: 'Directory issuer', source: 'directory' }]);
    expect(logged).toEqual(['digital_cards.issuers_refreshed']);

    // Status events come with every count: within the day they fetch nothing.
    clock.advance(ISSUER_REFRESH_EVERY_MS - 60_000);
    events.emit('sync.status', status(true));
    await refresher.settled();
    expect(directoryReads()).toBe(1);

    clock.advance(60_000);
    events.emit('sync.status', status(true));
    await refresher.settled();
    expect(directoryReads()).toBe(2);
  });

  it('does nothing on a desk with no directory URLs', async () => {
    const db = openDigitalCardDb();
    cleanups.push(() => db.close());
    const clock = manualClock();
    const events = createEventHub();
    const issuers = createIssuerDirectory({ db: db.opened.db, clock });
    const logged: string[] = [];
    const refresher = createIssuerRefresher({ refresh: { issuers, network: DEFAULT_NETWORK_POLICY, clock }, events, log: (event) => void logged.push(event) });
    await refresher.start?.();
    cleanups.push(() => refresher.stop?.());
    events.emit('sync.status', status(true));
    expect(await refresher.settled()).toBeNull();
    expect(logged).toEqual([]);
  });
});
