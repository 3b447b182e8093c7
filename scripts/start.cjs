#!/usr/bin/env node
// `npm start`: the desktop app where Electron's binary is installed; otherwise say so
// plainly and start the browser mode instead of crashing.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

function electronBinary() {
  // Read what the electron package would, without require('electron'): that tries to
  // download the binary on the spot, which hangs or fails on an offline desk.
  const dir = path.dirname(require.resolve('electron/package.json'));
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = process.argv.slice(2);
const binary = electronBinary();
let result;
if (binary) {
  result = spawnSync(npm, ['exec', '--', 'electron-vite', 'preview', ...args], { stdio: 'inherit' });
} else {
  console.log(
    'The Electron binary is not installed on this machine, so the desktop window cannot open.\n' +
      'Starting Coverdesk in browser mode instead (same app, same data); open the address printed below.\n',
  );
  result = spawnSync(npm, ['run', 'start:web', '--', ...args], { stdio: 'inherit' });
}
process.exit(result.status ?? 1);
