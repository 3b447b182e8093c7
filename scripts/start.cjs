#!/usr/bin/env node
// `npm start`: installs what is missing, then the desktop app where Electron's binary can be
// had; otherwise it says so plainly and starts the browser mode instead of crashing.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensurePackages, installEnv, npm, root, say } = require('./ensure-installed.cjs');

function electronBinary() {
  // Read what the electron package would, without require('electron'): that tries to
  // download the binary on the spot, which hangs or fails on an offline desk.
  const dir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

/** Packages install without Electron's binary (ensure-installed.cjs); fetch it once here. */
function fetchElectronBinary() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return;
  say("fetching Electron's binary for the desktop window…");
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
    cwd: root,
    stdio: 'ignore',
    timeout: 180_000,
  });
  if (result.status !== 0) say('could not fetch it (no internet here?).');
}

ensurePackages();
const args = process.argv.slice(2);
if (!electronBinary()) fetchElectronBinary();
const binary = electronBinary();
let result;
if (binary) {
  say('starting the desktop app…');
  result = spawnSync(npm, ['exec', '--', 'electron-vite', 'preview', ...args], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
} else {
  console.log(
    'The Electron binary is not installed on this machine, so the desktop window cannot open.\n' +
      'Starting Coverdesk in browser mode instead (same app, same data); open the address printed below.\n',
  );
  result = spawnSync(npm, ['run', 'start:web', '--', ...args], { cwd: root, stdio: 'inherit', env: installEnv, shell: process.platform === 'win32' });
}
process.exit(result.status ?? 1);
