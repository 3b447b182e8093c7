import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { build as esbuild } from 'esbuild';

/**
 * The page's first script (`src/renderer/src/first-read.ts`), bundled on its own, every import
 * inlined, and put in the page's head before the main entry: it starts Today's reads while the
 * main entry (React, the shell) downloads and runs (issue 31). Not a second entry of the
 * renderer build: the modules it shares with the main entry went into chunks of their own, so
 * it waited for two more requests before sending anything (700 bytes now, duplicated from
 * modules the main entry also has). Vite would fold a second script of index.html into the
 * main entry, so the tag is added after the build, naming the hashed file.
 */
function firstReadScript(): Plugin {
  let source: string | undefined;
  return {
    name: 'coverdesk-first-read',
    apply: 'build',
    async buildStart() {
      const result = await esbuild({
        entryPoints: [resolve(__dirname, 'src/renderer/src/first-read.ts')],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        // As the renderer build's own target and minification (see `renderer.build`).
        target: 'es2021',
        minify: true,
        write: false,
        logLevel: 'silent',
      });
      source = result.outputFiles[0].text;
    },
    generateBundle() {
      if (source === undefined) throw new Error('The first read script was not built.');
      this.emitFile({ type: 'asset', name: 'first-read.js', source });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const script = Object.values(context.bundle ?? {}).find((item) => item.type === 'asset' && item.names.includes('first-read.js'));
        const main = html.indexOf('<script type="module"');
        if (!script || main < 0) throw new Error('The renderer build has no first-read script or no main entry script.');
        // First in the head, so the browser fetches it first; `async`: it runs as soon as it is in.
        return `${html.slice(0, main)}<script type="module" async crossorigin src="./${script.fileName}"></script>\n    ${html.slice(main)}`;
      },
    },
  };
}

/**
 * The modules the page's main entry imports statically, directly or not: what the first screen
 * runs before its first paint. Put in one chunk (`first-screen`): the automatic chunking split
 * those shared with later screens into three more files (55 kB and two of under 1 kB), each one
 * more request before the main entry could run; with the first reads, that was more than the
 * browser's six connections to the host, so the last asset or read waited for a free one
 * (issue 31). Now the first screen asks for four files (first script, bundler runtime, this
 * chunk, styles) and its two reads.
 */
function firstScreenModules(): { plugin: Plugin; has(id: string): boolean } {
  const reached = new Set<string>();
  return {
    has: (id) => reached.has(id),
    plugin: {
      name: 'coverdesk-first-screen-modules',
      apply: 'build',
      buildEnd() {
        const main = [...this.getModuleIds()].find((id) => id.endsWith('/src/renderer/src/main.tsx'));
        if (!main) throw new Error('The renderer build has no main.tsx.');
        const visit = (id: string) => {
          if (reached.has(id)) return;
          reached.add(id);
          this.getModuleInfo(id)?.importedIds.forEach(visit);
        };
        visit(main);
      },
    },
  };
}
const firstScreen = firstScreenModules();

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
    plugins: [react(), firstReadScript(), firstScreen.plugin],
    build: {
      // electron-vite leaves bundles unminified; the page parses this one on every start.
      minify: true,
      // Class private fields (TanStack Query uses them) lowered to WeakMaps: Electronegativity's
      // parser cannot read them, and a bundle it cannot parse is a bundle it cannot check.
      target: 'es2021',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        output: { codeSplitting: { groups: [{ name: 'first-screen', test: (id: string) => firstScreen.has(id) }] } },
      },
    },
  },
});
