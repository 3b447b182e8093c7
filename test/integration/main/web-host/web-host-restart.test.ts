import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '@src/main/web-host/start-web-host';
import { makeTempDir } from '@test/support/temp-dir';
import { deskWith, flipByteInAPage, person } from '@test/support/storage/damaged-desk';

let web: WebHost | undefined;
let temp: { dir: string; cleanup(): void } | undefined;
afterEach(async () => {
  await web?.close();
  web = undefined;
  temp?.cleanup();
});

async function call(method: string, body: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const secret = new URL(web!.url).hash.replace('#secret=', '');
  const response = await fetch(`${web!.origin}/bridge/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-coverdesk-secret': secret }, body: JSON.stringify(body) });
  return (await response.json()) as never;
}

/** The event stream as a page opening now receives it, up to the first records.changed (a create made once it is open). */
function streamUntilAChange(): Promise<string> {
  const secret = new URL(web!.url).hash.replace('#secret=', '');
  return new Promise<string>((resolve, reject) => {
    const request = http.get(`${web!.origin}/bridge/events?secret=${secret}`, (response) => {
      let buffer = '';
      response.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        if (buffer.includes('event: records.changed')) {
          request.destroy();
          resolve(buffer);
        }
      });
      void call('patients.create', person(2000));
    });
    request.on('error', reject);
  });
}

describe('the web host restarting on the same data', () => {
  it('when the check finds the database damaged: the same address then serves a host on a recovered file, the damage reported, creates stored again', async () => {
    temp = makeTempDir('coverdesk-web-restart-');
    const ids = await deskWith(temp.dir, 400);
    flipByteInAPage(temp.dir);
    web = await startWebHost({ dataDir: temp.dir, port: 0, localApi: false, hotFolder: false });
    const first = web.host;
    expect(first.damaged).toBeNull();
    expect(await first.checked).toMatchObject({ state: 'damaged' });
    await web.restarted();
    expect(web.host).not.toBe(first);
    expect(web.host.damaged).not.toBeNull();
    const damage = (await call('storage.damage', {})) as { ok: true; value: { kept_as: string; recovered_entries: number } };
    expect(damage.value.kept_as).toMatch(/^coverdesk\.sqlite\.damaged-/);
    expect(damage.value.recovered_entries).toBeGreaterThan(ids.length / 2);
    const created = await call('patients.create', person(1000));
    expect(created).toMatchObject({ ok: true, value: { first_name: 'Rec1000' } });
    expect(await web.host.checked).toEqual({ state: 'ok' });
  });

  it('tells a page whose event stream connects only after the restart that it happened, before anything else', async () => {
    // A page's first answers can come from the host before the restart while its stream
    // connects after it: told nothing, it showed the old host's data and never the damage.
    temp = makeTempDir('coverdesk-web-restart-late-');
    await deskWith(temp.dir, 400);
    flipByteInAPage(temp.dir);
    web = await startWebHost({ dataDir: temp.dir, port: 0, localApi: false, hotFolder: false });
    await web.host.checked;
    await web.restarted();
    const stream = await streamUntilAChange();
    const events = [...stream.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(events[0]).toBe('host.restarted');
    expect(stream).toContain('data: {"reason":"damaged"}');
    expect(events.filter((name) => name === 'host.restarted')).toHaveLength(1);
  });
});
