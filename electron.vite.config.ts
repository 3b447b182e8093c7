import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The page's first script (`src/renderer/src/first-read.ts`), built as its own small entry
 * and put in the page's head before the main entry: it starts Today's reads while the main
 * entry (React, the contract's schemas, the shell) downloads and runs (issue 31). Vite would
 * fold a second script of index.html into the main entry, so it is added after the build.
 */
function firstReadScript(): Plugin {
  return {
    name: 'coverdesk-first-read',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunk = Object.values(context.bundle ?? {}).find((item) => item.type === 'chunk' && item.isEntry && item.name === 'first-read');
        const main = html.indexOf('<script type="module"');
        if (!chunk || main < 0) throw new Error('The renderer build has no first-read entry or no main entry script.');
        // First in the head, so the browser fetches it first; `async`: it runs as soon as it is in.
        return `${html.slice(0, main)}<script type="module" async crossorigin src="./${chunk.fileName}"></script>\n    ${html.slice(main)}`;
      },
    },
  };
}

export default defineConfig({
  main: {
    build: {
      // Native and large runtime packages stay in node_modules; our code is bundled.
      externalizeDeps: true,
      // The desktop entry, and the browser-mode host's command (`npm run start:web` runs it
      // with node: compiled once here, not transpiled on every start).
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts'), 'web-host': resolve(__dirname, 'src/main/web-host/cli.ts') } },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require packages: bundle zod and the contract into it.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react(), firstReadScript()],
    build: {
      // electron-vite leaves bundles unminified; the page parses this one on every start.
      minify: true,
      // Class private fields (TanStack Query uses them) lowered to WeakMaps: Electronegativity's
      // parser cannot read them, and a bundle it cannot parse is a bundle it cannot check.
      target: 'es2021',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html'), 'first-read': resolve(__dirname, 'src/renderer/src/first-read.ts') },
      },
    },
  },
});
