#!/usr/bin/env node
// `npm run start:web`: the browser-mode host, compiled. It builds (electron-vite) only when a
// source changed since the last build, then runs the host's compiled command with node: a
// desk that starts every morning waits neither for a build nor for TypeScript being
// transpiled module by module (together about 5 s of an 8 s start on these machines).
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensurePackages, npm, root, say } = require('./ensure-installed.cjs');

const ENTRY = path.join(root, 'out', 'main', 'web-host.js');
// What the build reads: a file edited, added or removed (its folder's time moves) after the
// last build's output was written rebuilds, however the last build was run (npm test builds too).
const SOURCES = ['src', 'drizzle', 'electron.vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.node.json', 'tsconfig.web.json'];

/** The newest modification time of the build's sources, files and folders alike. */
function newestSource() {
  let newest = 0;
  const visit = (target) => {
    let stat;
    try {
      stat = fs.statSync(target);
    } catch {
      return;
    }
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of fs.readdirSync(target)) visit(path.join(target, name));
  };
  for (const source of SOURCES) visit(path.join(root, source));
  return newest;
}

function builtAt() {
  try {
    return fs.statSync(ENTRY).mtimeMs;
  } catch {
    return 0;
  }
}

ensurePackages();
if (newestSource() > builtAt()) {
  say('building the app (sources changed since the last build)…');
  const built = spawnSync(npm, ['exec', '--', 'electron-vite', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' });
  if (built.status !== 0) {
    say('the build failed (see above).');
    process.exit(built.status ?? 1);
  }
}

// Its own process, so that Ctrl+C and a closed terminal reach the host (it saves and closes the database on SIGINT/SIGTERM).
const child = spawn(process.execPath, [ENTRY, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
