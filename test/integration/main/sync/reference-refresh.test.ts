import { describe, expect, it } from 'vitest';
import { createHost, type Host } from '@src/main/host/create-host';
import { replaceReferenceData, type ReferenceData } from '@src/main/sync/reference-refresh';
import { makeTempDir } from '@test/support/temp-dir';
import { closeAfterEach } from '@test/support/sync/sync-harness';

/**
 * The provider and payer cache replaced from the upstream's lists (docs/decisions.md, Sync),
 * on a real database file: rows added, changed and gone follow the lists, and a row the
 * upstream did not change is not written again (the refresh runs at every start).
 */
const temp = makeTempDir('coverdesk-reference-');
let host: Host | undefined;
closeAfterEach(() => host);

const LISTS: ReferenceData = {
  providers: [
    { id: 'prov_ref1', name: 'Dr One', npi: '1234567893' },
    { id: 'prov_ref2', name: 'Dr Two', npi: '1245319599' },
  ],
  clearinghouse_entities: [
    { id: 'ent_ref1', name: 'Payer One', payer_id: 'P0001' },
    { id: 'ent_ref2', name: 'Payer Two', payer_id: 'P0002' },
  ],
} as ReferenceData;

describe('the reference data refresh', () => {
  it('makes the cache the upstream lists, and writes nothing when they did not change', () => {
    host = createHost({ dataDir: `${temp.dir}/desk`, localApi: false, hotFolder: false });
    const sqlite = host.database.sqlite;
    const rows = (table: string) => sqlite.prepare(`SELECT * FROM ${table} ORDER BY id`).all();
    const changes = () => (sqlite.prepare('SELECT total_changes() AS n').get() as { n: number }).n;

    expect(replaceReferenceData(host.database.db, LISTS)).toEqual({ providers: 2, clearinghouse_entities: 2 });
    expect(rows('providers')).toEqual(LISTS.providers);
    expect(rows('clearinghouse_entities')).toEqual(LISTS.clearinghouse_entities);

    const before = changes();
    replaceReferenceData(host.database.db, LISTS);
    expect(changes() - before).toBe(0);

    // One payer renamed, one gone, one new; the providers as they were.
    const next = {
      providers: LISTS.providers,
      clearinghouse_entities: [
        { id: 'ent_ref1', name: 'Payer One Renamed', payer_id: 'P0001' },
        { id: 'ent_ref3', name: 'Payer Three', payer_id: 'P0003' },
      ],
    } as ReferenceData;
    const beforeChange = changes();
    replaceReferenceData(host.database.db, next);
    expect(rows('clearinghouse_entities')).toEqual(next.clearinghouse_entities);
    expect(rows('providers')).toEqual(LISTS.providers);
    // The renamed row, the new one and the one gone: three rows written, no more.
    expect(changes() - beforeChange).toBe(3);

    // An empty list is not applied (far likelier broken than true).
    replaceReferenceData(host.database.db, { providers: [], clearinghouse_entities: [] } as unknown as ReferenceData);
    expect(rows('clearinghouse_entities')).toEqual(next.clearinghouse_entities);
  });
});
