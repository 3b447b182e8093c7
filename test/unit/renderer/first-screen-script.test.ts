import { build, type Metafile } from 'esbuild';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = path.resolve(__dirname, '../../../src/renderer/src');

/**
 * The sources the page runs before its first paint: the main entry and every chunk it imports
 * statically (the screens loaded with `import()` come later), bundled as the renderer build
 * splits them.
 */
async function firstScreenSources(): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(RENDERER, 'main.tsx'), path.join(RENDERER, 'first-read.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    write: false,
    outdir: 'out',
    metafile: true,
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    logLevel: 'silent',
  });
  const outputs: Metafile['outputs'] = result.metafile.outputs;
  // The page's two scripts; the screens loaded with `import()` are entry points of their own.
  const entries = Object.keys(outputs).filter((name) => /\/(main\.tsx|first-read\.ts)$/.test(outputs[name].entryPoint ?? ''));
  const reached = new Set<string>();
  const visit = (name: string) => {
    if (reached.has(name)) return;
    reached.add(name);
    for (const imported of outputs[name].imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  expect(entries).toHaveLength(2);
  entries.forEach(visit);
  return [...reached].flatMap((name) => Object.keys(outputs[name].inputs));
}

describe("the page's first screen (issue 31, Today's first render)", () => {
  it("runs no zod and builds none of the contract's schemas before its first paint", async () => {
    const sources = await firstScreenSources();
    // The screens and React are there (the test would pass on an empty list otherwise)…
    expect(sources.some((source) => source.endsWith('screens/today-screen.tsx'))).toBe(true);
    expect(sources.some((source) => source.includes('node_modules/react-dom/'))).toBe(true);
    // …and no schema: building them was the largest part of the main script's evaluation.
    expect(sources.filter((source) => source.includes('node_modules/zod/') || source.endsWith('shared/bridge/contract.ts'))).toEqual([]);
  });
});
