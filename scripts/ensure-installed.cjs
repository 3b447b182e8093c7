// What `npm start` and `npm test` need before they can run, installed on the spot so that a
// fresh clone takes exactly those two commands. Plain CommonJS with no dependencies: it
// runs before node_modules exists.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// Electron's binary and Playwright's browsers are fetched separately (start.cjs tries the
// former; the tests use Debian's Chromium), so a machine without the internet can install.
const installEnv = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };

function say(line) {
  console.log(`coverdesk: ${line}`);
}

/** npm writes node_modules/.package-lock.json last; one older than the lock file is stale. */
function packagesInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(marker)) return false;
  return fs.statSync(marker).mtimeMs >= fs.statSync(path.join(root, 'package-lock.json')).mtimeMs;
}

function ensurePackages() {
  if (packagesInstalled()) return;
  say('installing npm packages (npm ci; a few minutes the first time: it compiles SQLite)…');
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', env: installEnv, shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error('coverdesk: npm ci failed (see above); fix that and run the command again.');
    process.exit(result.status ?? 1);
  }
}

function chromiumCandidates() {
  const list = [];
  if (process.env.CHROMIUM_PATH) list.push(process.env.CHROMIUM_PATH);
  list.push('/usr/bin/chromium');
  try {
    // Playwright's own Chromium, where someone installed it (never downloaded here).
    list.push(require(path.join(root, 'node_modules', '@playwright', 'test')).chromium.executablePath());
  } catch {
    // No Playwright yet, or no browser of its own: the other candidates decide.
  }
  return list;
}

function canRunAsRoot() {
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  return sudo.status === 0 ? ['sudo', '-n'] : null;
}

// The card generator's layout families print logos in URW's display faces (Z003 script,
// C059 and P052 serifs, URW Gothic): Debian's fonts-urw-base35, beside Chromium's own fonts.
const CARD_FONTS_DIR = '/usr/share/fonts/opentype/urw-base35';

/** On Debian with root (or sudo), the card generator's fonts; elsewhere it says what it lacks. */
function ensureCardFonts(prefix) {
  if (fs.existsSync(CARD_FONTS_DIR) || !fs.existsSync('/usr/bin/apt-get') || !prefix) return;
  say("installing the card generator's fonts (apt-get install fonts-urw-base35)…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => {
    const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
    return spawnSync(cmd, rest, { stdio: 'inherit', env }).status === 0;
  };
  const install = ['install', '-y', '-qq', 'fonts-urw-base35'];
  // A stale package list is the usual reason an install fails on a fresh machine.
  if (!apt(install) && !(apt(['update', '-qq']) && apt(install))) {
    console.error('coverdesk: could not install fonts-urw-base35 ("sudo apt-get install -y fonts-urw-base35"); the card generator\'s layout families need it and say so.');
  }
}

/** The end-to-end tests need a Chromium; on Debian with root (or sudo) install Debian's. */
function ensureChromium() {
  if (process.env.CHROMIUM_PATH && !fs.existsSync(process.env.CHROMIUM_PATH)) {
    console.error(`coverdesk: CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist: point it at a Chromium binary, or unset it.`);
    process.exit(1);
  }
  if (chromiumCandidates().some((p) => p && fs.existsSync(p))) {
    if (fs.existsSync('/usr/bin/apt-get')) ensureCardFonts(canRunAsRoot());
    return;
  }
  const aptGet = fs.existsSync('/usr/bin/apt-get');
  const prefix = aptGet ? canRunAsRoot() : null;
  if (!aptGet || !prefix) {
    const how = aptGet ? '"sudo apt-get install -y chromium"' : '"npx playwright install chromium" (or set CHROMIUM_PATH to a Chromium binary)';
    console.error(`coverdesk: the end-to-end tests need Chromium and none was found: run ${how}, then npm test again.`);
    process.exit(1);
  }
  say("installing Debian's Chromium for the end-to-end tests and the card generator's fonts (apt-get install chromium fonts-urw-base35)…");
  const run = (args) => {
    const [cmd, ...rest] = [...prefix, ...args];
    const result = spawnSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      console.error(`coverdesk: "${args.join(' ')}" failed; install Chromium by hand ("sudo apt-get install -y chromium") and run npm test again.`);
      process.exit(result.status ?? 1);
    }
  };
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', 'chromium', 'fonts-urw-base35']);
}

module.exports = { ensurePackages, ensureChromium, installEnv, npm, root, say };
