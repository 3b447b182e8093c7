import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { choose, choosePayer, fillNewPatient, memberIdField, openScreen, runCheck, saveCard } from './desk-actions';
import { expect, test } from './fixtures';

/**
 * Real payers end to end, in Chromium: the embedded sandbox serves the payer directory and
 * answers two members with real 271s (test/fixtures/x12-271, copied by
 * scripts/copy-x12-fixtures.cjs): Medicare's HETS specimen and the 5010 copay specimen.
 * The figures expected below were read off those files.
 */
const X12_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-e2e-x12-'));
// Filled in beforeAll, not once at load: with fullyParallel a worker runs afterAll when it
// leaves this file and beforeAll again when it comes back, but loads the module only once.
test.beforeAll(() => {
  fs.mkdirSync(X12_DIR, { recursive: true });
  for (const file of ['oophipaa_4010_Example3_CMS_HETS.x12', 'oop_5010_Example_3_1_2.x12']) {
    fs.copyFileSync(path.resolve('test/fixtures/x12-271', file), path.join(X12_DIR, file));
  }
});
test.afterAll(() => fs.rmSync(X12_DIR, { recursive: true, force: true }));

const FAST = { sandboxDelayMs: 500, policy: { probe: { baseMs: 250, capMs: 1_000 }, send: { baseMs: 250, capMs: 1_000, maxRetryAfterMs: 2_000 }, poll: { baseMs: 250, capMs: 1_000 } } };
test.use({ hostOptions: { sync: { ...FAST, sandboxX12Dir: X12_DIR } } });

test('a Medicare member of a real 271: Part A deductible left and the daily hospital copay at a glance', async ({ desk }) => {
  const { page } = desk;
  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'Fname', last: 'Lname', dob: '04/01/1920' });
  await memberIdField(page).fill('HICN');
  // "medicare" finds CMS's HETS by its alias id MEDICARE.
  await choose(page.getByRole('combobox', { name: 'Payer' }), 'medicare');
  await expect(page.getByRole('combobox', { name: 'Payer' })).toHaveValue('National Centers for Medicare & Medicaid Services');
  await saveCard(page);
  await runCheck(page, { serviceType: { search: 'hospital', label: 'Hospital' } });

  const summary = page.getByTestId('benefits-summary');
  await expect(summary).toBeVisible({ timeout: 20_000 });
  await expect(summary.getByTestId('plan-state')).toHaveText('Active');
  await expect(summary.getByTestId('plan-name')).toContainText('Medicare Part A · Medicare Part B');
  // EB*C**47*MA**29*992: stated as what is left; no total was sent, none is shown.
  await expect(summary.getByTestId('deductible')).toContainText('$992.00 left');
  await expect(summary.getByTestId('deductible')).toContainText('Medicare Part A');
  // EB*B**47*MA**29*248**DY*30
  await expect(summary.getByTestId('copay')).toContainText('$248.00 per day, 30 days');
  await expect(summary.getByTestId('out-of-pocket')).toContainText('Not stated by the payer');
  await summary.scrollIntoViewIfNeeded();
  await desk.shot('medicare-summary');
});

test('a 5010 member: copay in and out of network per visit, the payer’s plan name over the card’s', async ({ desk }) => {
  const { page } = desk;
  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'John', last: 'Smith', dob: '05/19/1963' });
  await memberIdField(page).fill('123456789');
  await page.getByLabel('Plan name', { exact: true }).fill('effective date');
  await choosePayer(page, 'Aetna');
  await saveCard(page);
  await runCheck(page, { serviceType: { search: 'office visit', label: 'Professional physician visit office' } });

  const summary = page.getByTestId('benefits-summary');
  await expect(summary).toBeVisible({ timeout: 20_000 });
  await expect(summary.getByTestId('plan-name')).toHaveText('GOLD 123 PLAN');
  await expect(summary.getByTestId('copay')).toContainText('$10.00 per visit');
  await expect(summary.getByTestId('copay')).toContainText('out of network $30.00 per visit');
  await expect(summary.getByTestId('deductible')).toContainText('Not stated by the payer');
  await desk.shot('copay-summary');
});

test('a Premera member can be checked after finding Premera by "premera" and by its payer id', async ({ desk }) => {
  const { page } = desk;
  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'Rainier', last: 'Olsen', dob: '03/02/1979' });
  await memberIdField(page).fill('PRM4402981');
  await choose(page.getByRole('combobox', { name: 'Payer' }), 'premera');
  await expect(page.getByRole('combobox', { name: 'Payer' })).toHaveValue('Premera Blue Cross of Washington');
  await saveCard(page);
  await runCheck(page);
  const summary = page.getByTestId('benefits-summary');
  await expect(summary).toBeVisible({ timeout: 20_000 });
  await expect(summary.getByTestId('plan-state')).toHaveText('Active');
  await expect(summary).toContainText('Premera Blue Cross of Washington');

  // Again, with the payer found by its payer id on the Eligibility screen.
  const payer = page.getByRole('combobox', { name: 'Payer' });
  await payer.click();
  await payer.fill('00430');
  await expect(page.getByRole('option', { name: /Premera Blue Cross of Washington/ })).toBeVisible();
  await desk.shot('payer-search-by-id');
  await payer.press('Enter');
  await expect(payer).toHaveValue('Premera Blue Cross of Washington');
  // The second check shown and answered before the person goes on: the first check's line in
  // the list already names Premera, and an answer still on its way would take the focus from
  // the Payer field below (a loaded CI run).
  const result = page.locator('#check-result');
  const firstCheck = await result.getAttribute('data-check-id');
  await page.getByRole('button', { name: 'Check eligibility' }).click();
  await expect(result).not.toHaveAttribute('data-check-id', firstCheck ?? '');
  await expect(result).toHaveAttribute('data-status', 'success', { timeout: 20_000 });
  await expect(page.getByRole('list').getByText(/Premera Blue Cross of Washington/).first()).toBeVisible();

  // A payer that cannot be found leads to discovery, not a dead end.
  await payer.click();
  await payer.fill('no such payer anywhere');
  await expect(page.getByText(/Nothing matches .* Not listed\? Find the patient’s coverage with a discovery/)).toBeVisible();
  await payer.press('Escape');
  await page.getByRole('button', { name: 'Find coverage with a discovery' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Discovery/ })).toBeVisible();
});
