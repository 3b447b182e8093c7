import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { BridgeProvider } from './bridge/bridge-provider';
import { createBridgeQueryClient } from './bridge/query-client';
import { createWebBridge } from './bridge/web-bridge';
import { OPEN_PAGE_PATH } from '../../shared/bridge/web-paths';
import { readFirstScreen } from './today/read-ahead';
import './styles.css';

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
  window.coverdesk ??= createWebBridge(secret ?? '', howToOpen);
  const bridge = window.coverdesk;
  const queries = createBridgeQueryClient();
  // The page's first script has already asked for them, where it was built with it.
  readFirstScreen(bridge, queries, new Date(), window.coverdeskFirstReads);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BridgeProvider bridge={bridge} queries={queries}>
        <App webMode={webMode} />
      </BridgeProvider>
    </StrictMode>,
  );
}
