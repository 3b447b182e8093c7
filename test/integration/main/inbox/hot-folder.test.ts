import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHotFolder, type HotFolder } from '@src/main/inbox/hot-folder';
import { listInboxItems } from '@src/main/inbox/inbox-store';
import { createIdGenerator } from '@src/main/support/ids';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makePng } from '@test/support/images';

let fx: HostFixture;
let now: number;
let inbox: string;
let folder: HotFolder;
const clock = { now: () => new Date(now) };

beforeEach(() => {
  now = Date.parse('2026-11-22T09:00:00.000Z');
  fx = startTestHost();
  inbox = path.join(fx.dataDir, 'inbox');
  folder = createHotFolder({
    dir: inbox,
    db: fx.host.database.db,
    service: fx.host.service,
    clock,
    ids: createIdGenerator(clock),
    events: fx.host.events,
    settleMs: 1000,
    loneFrontMs: 3000,
    orphanMs: 10_000,
  });
});
afterEach(async () => {
  await folder.stop();
  await fx.cleanup();
});

/** Scans, lets the clock run on, and scans again: what a real poll loop does. */
async function settle(ms = 5000): Promise<string[]> {
  const made = await folder.scan();
  now += ms;
  return [...made, ...(await folder.scan())];
}

const drop = (name: string, data: Uint8Array | string) => fs.writeFileSync(path.join(inbox, name), data);
const ls = (dir = '') => (fs.existsSync(path.join(inbox, dir)) ? fs.readdirSync(path.join(inbox, dir)).sort() : []);
const allFiles = () => [...ls().filter((f) => f !== 'processed' && f !== 'rejected'), ...ls('processed'), ...ls('rejected')];

describe('hot folder', () => {
  it('turns a front, back and sidecar into an inbox item and moves the files to processed/', async () => {
    drop('scan-001.front.png', makePng(8, 5, [10, 20, 30]));
    drop('scan-001.back.png', makePng(8, 5, [40, 50, 60]));
    drop('scan-001.json', JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10' }));
    const made = await settle();
    expect(made).toHaveLength(1);
    const [item] = listInboxItems(fx.host.database.db, 'new');
    expect(item).toMatchObject({
      id: made[0],
      state: 'new',
      patient_first_name: 'Ada',
      patient_date_of_birth: '1985-12-10',
      extraction_status: 'failure',
      extraction_failure_reason: 'no_engine',
    });
    expect(item.back_photo_object_key).toMatch(/\.png$/);
    expect(ls('processed')).toEqual(['scan-001.back.png', 'scan-001.front.png', 'scan-001.json']);
    expect(ls()).toEqual(['processed', 'rejected']);
    // The photos go upstream like any other.
    expect(fx.snapshot().outbox).toBe(2);
  });

  it('does not pick up a file that is still being written', async () => {
    drop('half.front.png', makePng(20, 20).slice(0, 30));
    await folder.scan();
    now += 500;
    fs.appendFileSync(path.join(inbox, 'half.front.png'), Buffer.from(makePng(20, 20).slice(30)));
    now += 800;
    expect(await folder.scan()).toEqual([]);
    expect(ls()).toContain('half.front.png');
    // Once it has stood still long enough it is used, whole.
    now += 4000;
    expect(await folder.scan()).toHaveLength(1);
    expect(ls('rejected')).toEqual([]);
  });

  it('waits for a back that follows its front', async () => {
    drop('pair.front.png', makePng());
    await folder.scan();
    now += 1500;
    expect(await folder.scan()).toEqual([]);
    drop('pair.back.png', makePng(5, 5));
    const made = await settle(1500);
    expect(made).toHaveLength(1);
    expect(listInboxItems(fx.host.database.db, 'new')[0].back_photo_object_key).toBeDefined();
  });

  it('rejects a corrupt image with a reason while the other drops keep flowing', async () => {
    const corrupt = Buffer.concat([Buffer.from(makePng()).subarray(0, 16), Buffer.from('not really an image at all')]);
    drop('bad.front.png', corrupt);
    drop('good.front.png', makePng(6, 6, [1, 1, 1]));
    const made = await settle();
    expect(made).toHaveLength(1);
    expect(ls('rejected')).toEqual(['bad.front.png', 'bad.reason.txt']);
    expect(fs.readFileSync(path.join(inbox, 'rejected', 'bad.reason.txt'), 'utf8')).toMatch(/damaged or incomplete/);
    expect(ls('processed')).toEqual(['good.front.png']);
  });

  it('rejects a sidecar naming an unknown patient, and one that is not JSON', async () => {
    drop('a.front.png', makePng(3, 3, [9, 9, 9]));
    drop('a.json', JSON.stringify({ patient_id: 'pat_01JD00000000000000000000ZZ' }));
    drop('b.front.png', makePng(3, 4));
    drop('b.json', '{ nope');
    expect(await settle()).toEqual([]);
    expect(fs.readFileSync(path.join(inbox, 'rejected', 'a.reason.txt'), 'utf8')).toMatch(/No patient with id/);
    expect(fs.readFileSync(path.join(inbox, 'rejected', 'b.reason.txt'), 'utf8')).toMatch(/not valid JSON/);
    expect(listInboxItems(fx.host.database.db, undefined)).toEqual([]);
    // Nothing was stored for the rejected drops.
    expect(fx.snapshot().photos).toBe(0);
  });

  it('rejects unknown files and a back with no front, deleting nothing', async () => {
    drop('notes.txt', 'hello');
    drop('lonely.back.png', makePng());
    drop('.hidden.front.png', makePng());
    drop('upload.front.png.part', 'partial');
    const before = allFiles().length;
    await settle();
    expect(ls('rejected')).toEqual(['notes.txt', 'notes.txt.reason.txt']);
    now += 20_000;
    await folder.scan();
    expect(ls('rejected')).toEqual(['lonely.back.png', 'lonely.reason.txt', 'notes.txt', 'notes.txt.reason.txt']);
    expect(ls()).toEqual(['.hidden.front.png', 'processed', 'rejected', 'upload.front.png.part']);
    // Every file dropped is still somewhere; only reason files were added.
    expect(allFiles().filter((f) => !f.endsWith('.reason.txt'))).toHaveLength(before);
  });
});
