import fs from 'node:fs';
import { logFilePath } from '@src/main/support/host-log';
import { CANARY_MEMBER_ID, CANARY_PATIENT } from '@test/support/canary-phi';
import { makePng } from '@test/support/images';
import type { FileChooser } from '@playwright/test';
import { tabTo } from './desk-actions';
import { expect, test } from './fixtures';

// (e) Keyboard-only intake: from Today to a checked card without touching the mouse.
// The patient is the canary: after the run, no log file may hold their name, birth date or member id.
const { first_name: FIRST, last_name: LAST } = CANARY_PATIENT;
const [year, month, day] = CANARY_PATIENT.date_of_birth.split('-');
test('a whole intake and check with the keyboard only', async ({ desk }) => {
  const { page } = desk;
  const keys = page.keyboard;
  // Listen for the file chooser from the start: Playwright turns on Chromium's interception
  // when the first listener appears, asynchronously, and a key press sent right after the
  // listener can beat it (then no chooser event ever comes).
  const chooser = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve));
  await expect(page.getByRole('heading', { name: 'Today' })).toBeVisible();

  await keys.press('Alt+2');
  await expect(page.getByRole('heading', { level: 1, name: 'Intake' })).toBeFocused();
  await tabTo(page, page.getByLabel('First name', { exact: true }));
  await keys.type(FIRST);
  await keys.press('Tab');
  await keys.type(LAST);
  await keys.press('Tab');
  await keys.type(`${month}/${day}/${year}`);

  // The file picker opens from the keyboard too.
  await tabTo(page, page.getByRole('button', { name: 'Choose front photo…' }));
  await keys.press('Enter');
  await (await chooser).setFiles({ name: 'front.png', mimeType: 'image/png', buffer: Buffer.from(makePng(64, 40)) });
  await expect(page.getByRole('img', { name: 'Front of the card, as captured' })).toBeVisible();

  await tabTo(page, page.getByRole('combobox', { name: 'Payer' }));
  await keys.type('cig');
  await keys.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Payer' })).toHaveValue('Cigna');
  await tabTo(page, page.getByLabel('Member id', { exact: true }));
  await keys.type(CANARY_MEMBER_ID);
  await desk.shot('keyboard-intake-form');
  // Enter in a field saves, as in any form.
  await keys.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Eligibility — ${LAST}, ${FIRST}` })).toBeFocused();

  await tabTo(page, page.getByLabel('Provider', { exact: true }));
  await keys.type('Maple');
  await expect(page.getByLabel('Provider', { exact: true })).toHaveValue('prv_01JD0000000000000000000001');
  await tabTo(page, page.getByRole('combobox', { name: 'Service type' }));
  await keys.type('urgent');
  await keys.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Service type' })).toHaveValue('Urgent care');
  await tabTo(page, page.getByRole('button', { name: 'Check eligibility' }));
  await keys.press('Enter');

  const summary = page.getByTestId('benefits-summary');
  await expect(summary).toBeVisible({ timeout: 20_000 });
  await expect(summary.getByTestId('plan-state')).toHaveText('Active');
  await expect(summary.getByTestId('copay')).toContainText('$');
  await desk.shot('keyboard-summary');

  // Back to Today with Alt+1; the new patient is there and opens with Enter from the search.
  await keys.press('Alt+1');
  await expect(page.getByLabel('Search by name, date of birth or member id')).toBeFocused();
  await keys.type(LAST.toLowerCase());
  await expect(page.getByRole('option', { name: new RegExp(`${LAST}, ${FIRST}`) })).toBeVisible();
  await keys.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Eligibility — ${LAST}, ${FIRST}` })).toBeVisible();

  // The host kept a log while all this happened (the scan after the run has something to read).
  expect(fs.readFileSync(logFilePath(desk.dataDir), 'utf8')).toMatch(/"event":"local_api"/);
});

test('"/" jumps to Today\'s search from the page, and is typed as text inside a field', async ({ desk }) => {
  const { page } = desk;
  const search = page.getByLabel('Search by name, date of birth or member id');
  await expect(search).toBeFocused();
  await search.blur();
  await expect(search).not.toBeFocused();
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('');
  await page.keyboard.type('a/b');
  await expect(search).toHaveValue('a/b');
});
