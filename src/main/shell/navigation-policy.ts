import type { WebContents } from 'electron';
import { openExternalIfAllowed } from './external-links';
import { originOf } from './app-protocol';

export interface NavigationPolicyDeps {
  /** Where the app's own pages come from (app://coverdesk; the dev server while developing). */
  appOrigins: readonly string[];
  openExternal(url: string): Promise<void>;
}

/**
 * Every web contents stays on the app: navigating away (a link, a redirect, `location =`)
 * is blocked, new windows are denied, and a plain `https:` link goes to the user's browser
 * through the one allow-list helper instead. `<webview>` is refused outright.
 */
export function applyNavigationPolicy(contents: WebContents, deps: NavigationPolicyDeps): void {
  const isApp = (url: string) => {
    const origin = originOf(url);
    return origin !== null && deps.appOrigins.includes(origin);
  };
  const stayOnApp = (event: { preventDefault(): void }, url: string) => {
    if (isApp(url)) return;
    event.preventDefault();
    openExternalIfAllowed(deps.openExternal, url);
  };

  // Electron 45 carries the URL on the event; the positional argument is its older form.
  contents.on('will-navigate', (event, url) => stayOnApp(event, event.url ?? url));
  contents.on('will-frame-navigate', (event) => {
    if (!isApp(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isApp(event.url ?? url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfAllowed(deps.openExternal, url);
    return { action: 'deny' };
  });
}
