import { test as base, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstStart } from './desk-actions';

// `npm run start:web` as a person runs it: its script, which builds only when a source is newer
// than the last build (`npm test` has built), then runs the host's compiled command with node.
base('start:web prints a URL with a per-run secret; the page works with it (first start: the manager’s name and PIN) and refuses without it', async ({ page }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-cli-'));
  const child = spawn(process.execPath, ['scripts/start-web.cjs', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /http:\/\/127\.0\.0\.1:\d+\/#secret=[\w-]+/.exec(out);
        if (match) resolve(match[0]);
      });
      child.on('exit', (code) => reject(new Error(`start:web exited with ${code}`)));
      setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 30_000);
    });

    await page.goto(url);
    // The first start asks the manager's name and PIN on one screen, and nothing more (issue 28).
    await firstStart(page, { name: 'Maria Manager', pin: '135790' });
    await expect(page.getByRole('heading', { name: 'Today' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Sandbox mode' })).toBeVisible();

    // The same page without the secret gets nothing from the host: one page saying how to open it.
    const stranger = await page.context().newPage();
    await stranger.goto(url.replace(/#.*$/, ''));
    await expect(stranger.getByRole('heading', { name: 'Open Coverdesk from the address it printed' })).toBeVisible();
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  expect(child.exitCode).toBe(0);
});
