import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

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
    plugins: [react()],
    build: {
      // electron-vite leaves bundles unminified; the page parses this one on every start.
      minify: true,
      // Class private fields (TanStack Query uses them) lowered to WeakMaps: Electronegativity's
      // parser cannot read them, and a bundle it cannot parse is a bundle it cannot check.
      target: 'es2021',
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
