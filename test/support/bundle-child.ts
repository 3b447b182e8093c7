import path from 'node:path';
import { build } from 'esbuild';

/** Native addons and what loads its own files stay outside the bundle. */
const EXTERNAL = ['better-sqlite3', 'better-sqlite3-multiple-ciphers', 'sharp', 'tesseract.js', '@napi-rs/canvas', 'electron'];

/**
 * Bundles a crash test's child process once, so each restart costs a process start, not a
 * TypeScript compile. The bundle sits inside the repo (node_modules/.cache/<name>) so that
 * drizzle/ is found above it. Answers the bundle's path.
 */
export async function bundleChild(entry: string, name: string): Promise<string> {
  const outfile = path.resolve(__dirname, '../../node_modules/.cache', name, `${path.basename(entry, '.ts')}.cjs`);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: EXTERNAL, outfile, logLevel: 'error' });
  return outfile;
}
