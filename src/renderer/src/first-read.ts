import { sendFirstReads } from './today/first-reads';

// The page's first script (electron.vite.config.ts adds it to the page before the main entry):
// it starts Today's reads while the main entry, React and the contract's schemas download and run.
window.coverdeskFirstReads ??= sendFirstReads(window);
