#!/usr/bin/env node
// `npm test`: installs what is missing, then every check in order; the first failure stops
// the run with its exit code.
const { spawnSync } = require('node:child_process');
const { ensureChromium, ensurePackages, installEnv, npm, root, say } = require('./ensure-installed.cjs');

ensurePackages();
ensureChromium();

const steps = [
  ['typecheck', ['run', 'typecheck']],
  ['lint (layers, cycles, hooks)', ['run', 'lint']],
  ['build', ['run', 'build']],
  ['Electronegativity', ['run', 'security:electronegativity']],
  ['unit and integration tests (vitest)', ['exec', '--', 'vitest', 'run']],
  ['end-to-end tests in Chromium (Playwright)', ['exec', '--', 'playwright', 'test']],
  ['no PHI in the test run’s logs', ['run', 'scan:plaintext', '--', 'test-results/logs']],
];

for (const [name, args] of steps) {
  say(`▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(npm, args, { cwd: root, stdio: 'inherit', env: installEnv, shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`coverdesk: ✗ ${name} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
  say(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
say('every check passed.');
