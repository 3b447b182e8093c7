import { chromium, defineConfig } from '@playwright/test';
import fs from 'node:fs';

/**
 * End-to-end tests: the real web host (with its embedded sandbox) and the built renderer in
 * Debian's Chromium. Playwright never downloads a browser here (TOOLCHAIN.md).
 */
function findChromium(): string {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen && !fs.existsSync(chosen)) {
    console.error(`CHROMIUM_PATH is ${chosen}, which does not exist: point it at a Chromium binary, or unset it to use /usr/bin/chromium.`);
    process.exit(1);
  }
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', chromiumFromPlaywright()].filter((p): p is string => !!p);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) {
    // One line, then stop: the end-to-end tests are never skipped silently.
    console.error(
      `No Chromium for the end-to-end tests (looked at ${candidates.join(', ')}): install it with "sudo apt-get install -y chromium" (Debian/Ubuntu) or "npx playwright install chromium" elsewhere, or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  return found;
}

function chromiumFromPlaywright(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  // Each test starts its own host on a temporary data dir; two at a time fit two cores.
  workers: 2,
  fullyParallel: true,
  // A test that reads a card photo takes 50 s on a CI machine at load 16 (OCR shares two cores
  // with the other worker's desk); a failing test waits this long, a passing one does not.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  forbidOnly: !!process.env.CI,
  use: {
    viewport: { width: 1280, height: 860 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: findChromium(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        // A synthetic camera, so the getUserMedia capture path runs too.
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
