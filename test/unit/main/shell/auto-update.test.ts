import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveUpdateFeed, startAutoUpdates } from '@src/main/shell/auto-update';

function fakeUpdater(check = vi.fn(async () => null)) {
  return { autoDownload: false, autoInstallOnAppQuit: false, setFeedURL: vi.fn(), checkForUpdatesAndNotify: check };
}
afterEach(() => vi.useRealTimers());

describe('update feed', () => {
  it('uses the feed built into the app unless COVERDESK_UPDATE_URL says otherwise', () => {
    expect(resolveUpdateFeed({})).toEqual({ kind: 'built-in' });
    expect(resolveUpdateFeed({ COVERDESK_UPDATE_URL: ' https://updates.clinic.example/coverdesk/ ' })).toEqual({ kind: 'url', url: 'https://updates.clinic.example/coverdesk/' });
    expect(resolveUpdateFeed({ COVERDESK_UPDATE_URL: 'off' })).toMatchObject({ kind: 'off' });
  });

  it('never takes updates over plain http or from something that is not an address', () => {
    expect(resolveUpdateFeed({ COVERDESK_UPDATE_URL: 'http://updates.clinic.example/' })).toEqual({ kind: 'off', reason: 'COVERDESK_UPDATE_URL must start with https://' });
    expect(resolveUpdateFeed({ COVERDESK_UPDATE_URL: 'file:///tmp/evil' })).toMatchObject({ kind: 'off' });
    expect(resolveUpdateFeed({ COVERDESK_UPDATE_URL: 'updates' })).toMatchObject({ kind: 'off' });
  });
});

describe('auto-update', () => {
  it('checks at start and on an interval, installing on quit; a configured feed is set first', async () => {
    vi.useFakeTimers();
    const updater = fakeUpdater();
    const stop = startAutoUpdates({ updater: updater as never, feed: { kind: 'url', url: 'https://u.example/' }, log: () => undefined, intervalMs: 1000 });
    expect(updater.setFeedURL).toHaveBeenCalledWith({ provider: 'generic', url: 'https://u.example/' });
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2500);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(3);
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(3);
  });

  it('does nothing when turned off, and survives an offline check', async () => {
    const off = fakeUpdater();
    const log = vi.fn();
    startAutoUpdates({ updater: off as never, feed: { kind: 'off', reason: 'COVERDESK_UPDATE_URL=off' }, log })();
    expect(off.checkForUpdatesAndNotify).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('Automatic updates are off (COVERDESK_UPDATE_URL=off).');

    const offline = fakeUpdater(vi.fn(async () => Promise.reject(new TypeError('fetch failed'))));
    const stop = startAutoUpdates({ updater: offline as never, feed: { kind: 'built-in' }, log });
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith('Update check failed: TypeError.'));
    expect(offline.setFeedURL).not.toHaveBeenCalled();
    stop();
  });
});
