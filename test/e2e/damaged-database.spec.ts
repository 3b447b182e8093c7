import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { startWebHost } from '@src/main/web-host/start-web-host';
import { deskWith, flipByteInAPage } from '@test/support/storage/damaged-desk';
import { DESK_SIZES, SCREENSHOT_DIR } from './fixtures';

// Issue 29: a database found damaged after the desk opened: the browser-mode host restarts on a
// recovered file behind the same address, and the page, without a reload, shows what was kept aside.
test('a damaged database found after the page opened: the banner appears without a reload, naming the file kept aside', async ({ page }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-e2e-damaged-'));
  await deskWith(dataDir, 400);
  flipByteInAPage(dataDir);
  const web = await startWebHost({ dataDir, port: 0, askFirstManager: false, localApi: false, hotFolder: false });
  try {
    const first = web.host;
    await page.setViewportSize({ width: 1366, height: 820 });
    await page.goto(web.url);
    await expect(page.getByRole('navigation').getByText('Today')).toBeVisible();
    await web.restarted();
    await expect.poll(() => web.host !== first).toBe(true);
    const banner = page.getByTestId('damage-banner');
    await expect(banner).toContainText('The database was damaged and set aside.');
    await banner.locator('summary').click();
    await expect(banner).toContainText(web.host.damaged!.keptAs.split(path.sep).pop()!);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const size of DESK_SIZES) {
      await page.setViewportSize(size);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `damaged-database--banner-${size.width}.png`) });
    }
  } finally {
    await web.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

// The page's first answers came from the host before the restart, its event stream connecting
// only after it (a slow page at a busy desk): the banner appears all the same, without a reload.
test('a damaged database found before the page’s event stream connected: the banner still appears', async ({ page }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-e2e-damaged-late-'));
  await deskWith(dataDir, 400);
  flipByteInAPage(dataDir);
  // The check a little later than the page's first reads, as at a desk whose page is quick.
  const web = await startWebHost({ dataDir, port: 0, askFirstManager: false, localApi: false, hotFolder: false, startCheck: { delayMs: 1500 } });
  try {
    let releaseStream!: () => void;
    const streamHeld = new Promise<void>((resolve) => (releaseStream = resolve));
    await page.route('**/bridge/events?*', async (route) => {
      await streamHeld;
      await route.continue();
    });
    await page.setViewportSize({ width: 1024, height: 768 });
    const damageAsked = page.waitForResponse((response) => response.url().endsWith('/bridge/storage.damage'));
    await page.goto(web.url);
    await damageAsked;
    await expect(page.getByRole('navigation').getByText('Today')).toBeVisible();
    await web.host.checked;
    await web.restarted();
    releaseStream();
    await expect(page.getByTestId('damage-banner')).toContainText('The database was damaged and set aside.');
  } finally {
    await web.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
