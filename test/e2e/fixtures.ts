import { test as base, expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { startWebHost, type WebHost, type WebHostOptions } from '@src/main/web-host/start-web-host';

/**
 * The two screen sizes every desk screen is walked at: a common front-desk laptop and the
 * smallest screen the desk supports.
 */
export const DESK_SIZES: readonly { width: number; height: number }[] = [
  { width: 1366, height: 820 },
  { width: 1024, height: 768 },
];

/** Screenshots kept as artifacts of every run, one folder, named by test. */
/**
 * How long a test waits for a card photo's reading: 5-10 s on a quiet machine, 50 s seen on a
 * CI machine at load 16 (OCR is CPU bound and shares two cores with the other worker's desk).
 */
export const READING_TIMEOUT_MS = 90_000;

export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');
/**
 * Every test's logs (the host's log file and the browser console), kept so that after the
 * run `npm test` can prove no log holds the canary patient (`npm run scan:plaintext`).
 */
export const LOG_DIR = path.resolve('test-results/logs');

export interface Desk {
  web: WebHost;
  dataDir: string;
  page: Page;
  /** Saves what is on screen as test-results/screenshots/<test>--<name>.png. */
  shot(name: string): Promise<void>;
  /** Console errors and warnings the page logged so far (CSP reports, failed requests, React warnings). */
  consoleProblems(): string[];
}

type HostOverrides = Omit<WebHostOptions, 'dataDir' | 'port'>;

/**
 * Staff on the desk (issue 28). `none` (the default): the desk as before staff existed, no
 * sign-in, so every older spec runs as it did. `first_start`: the page opens at the first-start
 * screen. `{ manager }`: that manager is made through the host and signs in through the page.
 */
export type StaffOption = 'none' | 'first_start' | { manager: { name: string; pin: string } };

/**
 * Each test gets its own host (real SQLite on a temporary data dir, the embedded sandbox,
 * the sync worker, the local API) behind the real web host, and a page opened at the URL it
 * printed. `hostOptions` lets a test point it at an upstream it controls.
 */
export const test = base.extend<{ hostOptions: HostOverrides; staff: StaffOption; desk: Desk }>({
  hostOptions: [{}, { option: true }],
  staff: ['none', { option: true }],
  desk: async ({ page, hostOptions, staff }, use, testInfo) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-e2e-'));
    const web = await startWebHost({
      dataDir,
      port: 0,
      // Fast, product-shaped sync: short backoffs so an outage ends in seconds, not minutes.
      sync: { sandboxDelayMs: 500, policy: { probe: { baseMs: 250, capMs: 1_000 }, send: { baseMs: 250, capMs: 1_000, maxRetryAfterMs: 2_000 }, poll: { baseMs: 250, capMs: 1_000 } } },
      askFirstManager: staff !== 'none',
      ...hostOptions,
    });
    if (typeof staff === 'object') {
      // Made through the host, then signed out: the page signs in as a person would.
      for (const [method, input] of [
        ['staff.setup', staff.manager],
        ['staff.signOut', {}],
      ] as const) {
        const result = await dispatchBridgeCall(web.host.bridge, method, input);
        if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
      }
    }
    const errors: string[] = [];
    const consoleLines: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const problems: string[] = [];
    page.on('console', (message) => {
      consoleLines.push(`${message.type()}: ${message.text()}`);
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    await page.goto(web.url);
    if (typeof staff === 'object') await signIn(page, staff.manager.name, staff.manager.pin);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const slug = testInfo.titlePath.slice(1).join(' ').replace(/[^a-z0-9]+/gi, '-').toLowerCase().slice(0, 80);
    await use({
      web,
      dataDir,
      page,
      shot: async (name) => {
        // The desk scrolls inside its main area, so a viewport shot is what a person sees.
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${slug}--${name}.png`) });
      },
      consoleProblems: () => [...problems],
    });
    await web.close();
    const logs = path.join(LOG_DIR, slug);
    fs.mkdirSync(logs, { recursive: true });
    fs.cpSync(path.join(dataDir, 'logs'), path.join(logs, 'host'), { recursive: true });
    fs.writeFileSync(path.join(logs, 'browser-console.log'), consoleLines.join('\n'));
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

/** Signs in at the sign-in screen by keyboard alone: the name's first letters, Enter, the PIN, Enter. */
export async function signIn(page: Page, name: string, pin: string): Promise<void> {
  const names = page.getByRole('listbox', { name: 'Name' });
  await expect(names).toBeFocused();
  await page.keyboard.type(name.slice(0, 3));
  await expect(names.getByRole('option', { name, selected: true })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel(`PIN for ${name}`)).toBeFocused();
  await page.keyboard.type(pin);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('signed-in')).toContainText(name);
}

export { expect };
