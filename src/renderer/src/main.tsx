import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './styles.css';
import { createWebBridge } from './bridge/web-bridge';

// In Electron the preload has set window.coverdesk; in the browser mode we build it here.
if (!(window as Partial<Window>).coverdesk) {
  const secret = new URLSearchParams(window.location.hash.slice(1)).get('secret') ?? '';
  window.coverdesk = createWebBridge(secret);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
