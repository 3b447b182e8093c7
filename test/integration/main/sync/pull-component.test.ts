import { describe, expect, it } from 'vitest';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { closeAfterEach, startSyncHost, startUpstream, waitFor, type SyncHostFixture } from '@test/support/sync/sync-harness';

let upstream: Sandbox | undefined;
let desk: SyncHostFixture | undefined;
closeAfterEach(() => desk, () => upstream);

describe('the pull component', () => {
  it('takes the database\'s checkpoints off the desk\'s thread while a bootstrap writes page after page, and gives them back at the end', async () => {
    upstream = await startUpstream(0, { delayMs: 0 });
    for (let i = 0; i < 250; i++) await upstream.service.create('patients', { first_name: 'Remote', last_name: `Person${i}`, date_of_birth: '1970-03-04' }, { source: 'api' });
    desk = await startSyncHost(upstream.url, { sync: { pullIntervalMs: 60_000 } });
    const { sqlite } = desk.host.database;
    // Read as each page's records are announced: right after the page's commit.
    const seen: number[] = [];
    desk.host.events.on('records.changed', (change) => {
      if (change.collection === 'patients') seen.push(sqlite.pragma('wal_autocheckpoint', { simple: true }) as number);
    });
    await waitFor('the bootstrap to end', async () => (await desk!.host.bridge['sync.practice']({})).received === 250 || undefined);
    // The first page (more to come) starts the worker; the pages after it commit without checkpointing here.
    expect(seen.slice(1)).toContain(0);
    await waitFor('the automatic checkpoints back', () => sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000);
  }, 30_000);
});
