import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { BridgeProvider } from './bridge/bridge-provider';
import { createEventsGap } from './bridge/events-gap';
import { createBridgeQueryClient, refreshAllQueries } from './bridge/query-client';
import { createWebBridge } from './bridge/web-bridge';
import { OPEN_PAGE_PATH } from '../../shared/bridge/web-paths';
import { readFirstScreen } from './today/read-ahead';
import { sendFirstReads } from './today/first-reads';
import './styles.css';

/** How long the first render waits for the first reads before drawing "Opening the desk…". */
const FIRST_DRAW_WAIT_MS = 250;

// The one place the renderer touches the bridge's global: in Electron the preload has set
// it; in the browser mode it is built here and set alike, so the page is the same to scripts
// in both. Everything else reaches it through the provider. A browser-mode address without
// its secret (a bookmark, a typed address) or with an earlier run's goes to the page that
// says how to open the desk, before any call could be refused.
const secret = new URLSearchParams(window.location.hash.slice(1)).get('secret');
const howToOpen = () => window.location.replace(OPEN_PAGE_PATH);
if (!window.coverdesk && !secret) howToOpen();
else {
  const webMode = !window.coverdesk;
  // The page's first reads and the bridge tell one gap (events-gap.ts): the first script's, if it sent them.
  const gap = window.coverdeskFirstReads?.gap ?? createEventsGap();
  window.coverdesk ??= createWebBridge(secret ?? '', howToOpen, gap);
  const bridge = window.coverdesk;
  const queries = createBridgeQueryClient();
  let painted: () => void = () => undefined;
  // The page's first script has usually asked for them already. When this script runs first
  // (both wait for the same shared chunk), it asks here and leaves them where the first script
  // looks, so neither is asked twice.
  window.coverdeskFirstReads ??= sendFirstReads(window);
  const reads = readFirstScreen(bridge, queries, new Date(), window.coverdeskFirstReads, new Promise<void>((resolve) => (painted = resolve)));
  // Once the first reads are in the query layer: a gap found before would refresh what is not there yet.
  if (webMode) gap.onMissed(() => void reads.ready.catch(() => undefined).then(() => refreshAllQueries(queries)));
  // Drawn once the first reads are in the query layer. They are usually answered before this
  // script has run, but their answers are read by tasks queued behind it: drawn at once, the
  // page drew "Opening the desk…", then the shell, then Today's rows, three renders and
  // layouts instead of one (issue 31). A host slower than FIRST_DRAW_WAIT_MS gets the
  // "Opening the desk…" screen as before.
  const ready = new Promise<void>((resolve) => {
    void reads.ready.catch(() => undefined).then(resolve);
    setTimeout(resolve, FIRST_DRAW_WAIT_MS);
  });
  void ready.then(() => {
    const root = createRoot(document.getElementById('root')!);
    // Rendered now, in this task, not in a task the scheduler queues: the first paint follows it.
    flushSync(() =>
      root.render(
        <StrictMode>
          <BridgeProvider bridge={bridge} queries={queries}>
            <App webMode={webMode} />
          </BridgeProvider>
        </StrictMode>,
      ),
    );
    // After the frame that paints it: Today's whole list is asked for then (read-ahead.ts). A
    // hidden page has no frames: the timer asks for it all the same.
    requestAnimationFrame(() => setTimeout(painted, 0));
    setTimeout(painted, FIRST_DRAW_WAIT_MS);
  });
}
