import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newPipePath, pipeFile, WINDOWS_PIPE_PREFIX } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest } from '@test/support/http-request';
import { makeTempDir } from '@test/support/temp-dir';

// The Windows code path through the platform seam: names made in a temporary folder stand in
// for `\\.\pipe\`, and Unix sockets for pipes (both refuse a name that is already served).
const posix = process.platform !== 'win32';

describe('local API named pipe (Windows)', () => {
  let fx: HostFixture | undefined;
  const squatters: net.Server[] = [];
  const temps: { cleanup(): void }[] = [];
  // Socket paths are limited to about 100 bytes, so the stand-in namespace is a short folder.
  function pipeFolder(): string {
    const temp = makeTempDir('cdp-');
    temps.push(temp);
    return `${temp.dir}${path.sep}`;
  }
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
    await Promise.all(squatters.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
    for (const temp of temps.splice(0)) temp.cleanup();
  });

  it('makes pipe names with 128 random bits under the Windows pipe namespace', () => {
    const a = newPipePath();
    const b = newPipePath();
    expect(a).toMatch(/^\\\\\.\\pipe\\coverdesk-[0-9a-f]{32}$/);
    expect(a.startsWith(WINDOWS_PIPE_PREFIX)).toBe(true);
    expect(a).not.toBe(b);
    expect(a).not.toContain(process.env.USER ?? process.env.USERNAME ?? 'nobody-here');
  });

  it.runIf(posix)('serves an unguessable pipe and publishes its name in a user-only file', async () => {
    fx = startTestHost({ localApi: { platform: 'win32', pipePrefix: pipeFolder() }, hotFolder: false });
    await fx.host.start();
    const published = fs.readFileSync(pipeFile(fx.dataDir), 'utf8').trim();
    expect(path.basename(published)).toMatch(/^coverdesk-[0-9a-f]{32}$/);
    expect(fs.statSync(pipeFile(fx.dataDir)).mode & 0o777).toBe(0o600);
    const status = await fx.host.bridge['localApi.status']({});
    expect(status).toMatchObject({ state: 'running', address: published });
    const token = fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim();
    const answer = await httpRequest({ socketPath: published }, { path: '/v1/providers?limit=1', headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
  });

  it.runIf(posix)('never joins a name someone else created first: it takes a fresh one, and the squatter hears nothing', async () => {
    const prefix = pipeFolder();
    // The first two names the host will draw are already served by "another user".
    const draws = [Buffer.alloc(16, 1), Buffer.alloc(16, 2), Buffer.alloc(16, 3)];
    let heard = 0;
    for (const bytes of draws.slice(0, 2)) {
      const squatter = net.createServer((socket) => {
        heard++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => squatter.listen(`${prefix}coverdesk-${bytes.toString('hex')}`, resolve));
      squatters.push(squatter);
    }
    fx = startTestHost({ localApi: { platform: 'win32', pipePrefix: prefix, random: () => draws.shift()! }, hotFolder: false });
    await fx.host.start();
    const published = fs.readFileSync(pipeFile(fx.dataDir), 'utf8').trim();
    expect(published).toBe(`${prefix}coverdesk-${Buffer.alloc(16, 3).toString('hex')}`);
    const token = fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim();
    const answer = await httpRequest({ socketPath: published }, { path: '/v1/providers?limit=1', headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(heard).toBe(0);
  });

  it.runIf(posix)('closes the pipe again when its name cannot be published: nothing is left serving the token', async () => {
    const prefix = pipeFolder();
    const drawn = Buffer.alloc(16, 9);
    fx = startTestHost({ localApi: { platform: 'win32', pipePrefix: prefix, random: () => drawn }, hotFolder: false });
    // A folder where the name file goes: the rename that publishes it fails.
    fs.mkdirSync(path.join(pipeFile(fx.dataDir), 'in-the-way'), { recursive: true });
    await fx.host.start();
    expect((await fx.host.bridge['localApi.status']({})).state).toBe('unavailable');
    const target = `${prefix}coverdesk-${drawn.toString('hex')}`;
    const reached = await new Promise<boolean>((resolve) => {
      const socket = net.connect(target, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    expect(reached).toBe(false);
  });

  it.runIf(posix)('gives up after three taken names and says the local API is unavailable; the desk keeps working', async () => {
    const prefix = pipeFolder();
    const taken = Buffer.alloc(16, 7);
    const squatter = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(`${prefix}coverdesk-${taken.toString('hex')}`, resolve));
    squatters.push(squatter);
    fx = startTestHost({ localApi: { platform: 'win32', pipePrefix: prefix, random: () => taken }, hotFolder: false });
    await fx.host.start();
    const status = await fx.host.bridge['localApi.status']({});
    expect(status.state).toBe('unavailable');
    expect(status.message).toMatch(/pipe could not be created: 3 random pipe names in a row were already taken/);
    expect(fs.existsSync(pipeFile(fx.dataDir))).toBe(false);
    await expect(fx.host.bridge['patients.list']({})).resolves.toBeDefined();
  });
});
