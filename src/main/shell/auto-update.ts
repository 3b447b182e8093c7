import type { AppUpdater } from 'electron-updater';

/** Where updates come from at run time, if not the feed baked in at build time. */
export type UpdateFeed = { kind: 'built-in' } | { kind: 'url'; url: string } | { kind: 'off'; reason: string };

/**
 * The feed is configurable per practice: `COVERDESK_UPDATE_URL` (an https:// folder holding
 * electron-builder's latest.yml files, e.g. the practice's own mirror) overrides the one
 * set at build time; `COVERDESK_UPDATE_URL=off` turns updates off (IT pushes them instead).
 */
export function resolveUpdateFeed(env: Record<string, string | undefined>): UpdateFeed {
  const configured = env.COVERDESK_UPDATE_URL?.trim();
  if (!configured) return { kind: 'built-in' };
  if (configured === 'off') return { kind: 'off', reason: 'COVERDESK_UPDATE_URL=off' };
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    return { kind: 'off', reason: 'COVERDESK_UPDATE_URL is not a web address' };
  }
  // Updates are code: never over plain http, where anyone on the network could swap them.
  if (url.protocol !== 'https:') return { kind: 'off', reason: 'COVERDESK_UPDATE_URL must start with https://' };
  return { kind: 'url', url: url.toString() };
}

type Updater = Pick<AppUpdater, 'setFeedURL' | 'checkForUpdatesAndNotify' | 'autoDownload' | 'autoInstallOnAppQuit'>;

/**
 * Checks at start and every few hours; a downloaded update installs when the app quits, so
 * nobody loses a half-typed intake. electron-updater verifies the download's signature
 * (Authenticode publisher on Windows, the code signature on macOS) before installing.
 */
export function startAutoUpdates(deps: {
  updater: Updater;
  feed: UpdateFeed;
  log(message: string): void;
  intervalMs?: number;
}): () => void {
  if (deps.feed.kind === 'off') {
    deps.log(`Automatic updates are off (${deps.feed.reason}).`);
    return () => undefined;
  }
  if (deps.feed.kind === 'url') deps.updater.setFeedURL({ provider: 'generic', url: deps.feed.url });
  deps.updater.autoDownload = true;
  deps.updater.autoInstallOnAppQuit = true;
  const check = () =>
    void deps.updater.checkForUpdatesAndNotify().catch((error: unknown) => {
      // Offline desks are normal: say so, and try again at the next interval.
      deps.log(`Update check failed: ${error instanceof Error ? error.name : 'unknown error'}.`);
    });
  check();
  const timer = setInterval(check, deps.intervalMs ?? 4 * 60 * 60 * 1000);
  timer.unref?.();
  return () => clearInterval(timer);
}
