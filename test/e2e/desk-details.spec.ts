import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { choose, choosePayer, fillNewPatient, memberIdField, openScreen, runCheck, saveCard } from './desk-actions';
import { DESK_SIZES, expect, test, type Desk } from './fixtures';

/**
 * Issue 26, items 7–10 and their Low items, in Chromium against the real host: a patient's
 * details corrected, the patient search's keys, focus after the camera, the PIN.
 */

function expectQuietConsole(desk: Desk): void {
  expect(desk.consoleProblems(), 'console errors or warnings').toEqual([]);
}

// Item 10: the PIN is typed twice before it is saved, and the lock's wait counts down by itself.
test.describe('the PIN', () => {
  test.use({ hostOptions: { pinPolicy: { freeTries: 1, firstWaitMs: 4_000, maxWaitMs: 10_000 } } });
  for (const size of DESK_SIZES) {
    test(`at ${size.width}x${size.height}: a PIN typed twice differently is not saved; the wait ticks down and ends by itself`, async ({ desk }) => {
      const { page } = desk;
      await page.setViewportSize({ width: size.width, height: size.height });
      await openScreen(page, 'Settings');
      await page.getByLabel('New PIN', { exact: true }).fill('2468');
      await page.getByLabel('New PIN again', { exact: true }).fill('2486');
      await page.getByRole('button', { name: 'Set PIN' }).click();
      await expect(page.getByText('The two new PINs differ: type the same 4 to 12 digits in both.')).toBeVisible();
      await expect(page.getByLabel('New PIN again', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await desk.shot('pin-confirm-differs');
      // Nothing was saved: the lock is still a privacy screen.
      expect(await page.evaluate(() => (globalThis as unknown as { coverdesk: { lock: { status(i: object): Promise<{ value: { pin_set: boolean } }> } } }).coverdesk.lock.status({}))).toMatchObject({ value: { pin_set: false } });

      await page.getByLabel('New PIN again', { exact: true }).fill('2468');
      await page.getByRole('button', { name: 'Set PIN' }).click();
      await expect(page.getByText('PIN set.')).toBeVisible();
      await page.getByRole('button', { name: 'Lock now' }).click();
      const lock = page.getByRole('dialog', { name: 'Coverdesk is locked' });
      const pin = lock.getByLabel('PIN', { exact: true });
      await pin.fill('1111');
      await pin.press('Enter');
      const timer = lock.getByRole('timer');
      await expect(timer).toContainText(/Try again in [34] seconds\./);
      await desk.shot('pin-wait');
      // Nobody touches anything: the countdown moves on its own, then says the wait is over.
      await expect(timer).toContainText('Try again in 2 seconds.', { timeout: 3_000 });
      await expect(timer).toContainText('Try again in 1 second.', { timeout: 2_000 });
      await expect(lock.getByRole('status')).toHaveText('The wait is over: enter the PIN again.', { timeout: 2_000 });
      await pin.fill('2468');
      await pin.press('Enter');
      await expect(lock).toBeHidden();
      expectQuietConsole(desk);
    });
  }
});

/** Registers patients through the page's own bridge (what Intake would do), without the screens. */
async function registerPatients(desk: Desk, patients: { first_name: string; last_name: string; date_of_birth: string }[]): Promise<void> {
  await desk.page.evaluate(async (list) => {
    const w = globalThis as unknown as { coverdesk: { patients: { create(input: object): Promise<{ ok: boolean }> } } };
    for (const patient of list) {
      const result = await w.coverdesk.patients.create(patient);
      if (!result.ok) throw new Error('patient not registered');
    }
  }, patients);
}

// Item 9: the patient pickers of Eligibility and Discovery have Today's keys.
test.describe('the patient search of Eligibility and Discovery', () => {
  for (const size of DESK_SIZES) {
    test(`at ${size.width}x${size.height}: Enter picks the first match; ↓ moves into the list, ↑/↓ move, Enter picks`, async ({ desk }) => {
      const { page } = desk;
      await page.setViewportSize({ width: size.width, height: size.height });
      await registerPatients(desk, [
        { first_name: 'Ines', last_name: 'Okafor', date_of_birth: '1984-03-07' },
        { first_name: 'Ivan', last_name: 'Okafor', date_of_birth: '1990-11-02' },
      ]);
      await openScreen(page, 'Eligibility');
      const search = page.getByLabel('Find the patient', { exact: true });
      await search.fill('ines okafor');
      // Enter at once, before the host's search has answered: remembered, then the first match opens.
      await search.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: /^Eligibility — Okafor, Ines/ })).toBeVisible();

      await openScreen(page, 'Discovery');
      // Moving between the two keeps the patient: back to the picker with a fresh page.
      await page.reload();
      await openScreen(page, 'Discovery');
      const discoverySearch = page.getByLabel('Find the patient', { exact: true });
      await discoverySearch.fill('okafor');
      const results = page.getByRole('list', { name: 'Patients found' }).getByRole('button');
      await expect(results).toHaveCount(2);
      await discoverySearch.press('ArrowDown');
      await expect(results.nth(0)).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(results.nth(1)).toBeFocused();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await expect(discoverySearch).toBeFocused();
      await desk.shot('discovery-picker');
      await discoverySearch.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const second = (await results.nth(1).textContent()) ?? '';
      await page.keyboard.press('Enter');
      const name = second.includes('Ivan') ? 'Okafor, Ivan' : 'Okafor, Ines';
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^Discovery — ${name}`) })).toBeVisible();
      expectQuietConsole(desk);
    });
  }
});

// Item 9: closing the camera, or its failing, gives focus back to "Use camera".
test.describe('the camera', () => {
  for (const size of DESK_SIZES) {
    test(`at ${size.width}x${size.height}: closing or failing the camera puts focus back on the button that opened it`, async ({ desk }) => {
      const { page } = desk;
      await page.setViewportSize({ width: size.width, height: size.height });
      await openScreen(page, 'Intake');
      const front = page.getByTestId('photo-front');
      const useCamera = front.getByRole('button', { name: 'Use camera' });
      await useCamera.click();
      await expect(front.getByRole('button', { name: 'Take photo' })).toBeEnabled();
      await front.getByRole('button', { name: 'Close camera' }).press('Enter');
      await expect(useCamera).toBeFocused();

      // A camera that cannot be opened (access refused): the reason is said and focus comes back.
      await page.evaluate(() => {
        const devices = (globalThis as unknown as { navigator: { mediaDevices: { getUserMedia: () => Promise<never> } } }).navigator.mediaDevices;
        devices.getUserMedia = () => Promise.reject(new Error('NotAllowedError'));
      });
      await useCamera.press('Enter');
      await expect(front.getByText('The camera could not be opened. Allow camera access for Coverdesk, or choose a file instead.')).toBeVisible();
      await expect(useCamera).toBeFocused();
      await desk.shot('camera-failed');
      expectQuietConsole(desk);
    });
  }
});

// Item 7: a date of birth the payer refuses (AAA 71) is corrected on the chart, and the re-run answers.
test.describe('correcting a patient', () => {
  // The payer knows Janet Doe, born 03/05/1937, member 111111111 (a real 271).
  const X12_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-e2e-x12-'));
  test.beforeAll(() => {
    fs.mkdirSync(X12_DIR, { recursive: true });
    fs.copyFileSync(path.resolve('test/fixtures/x12-271/tigershark_271-example-2.x12'), path.join(X12_DIR, 'tigershark_271-example-2.x12'));
  });
  test.afterAll(() => fs.rmSync(X12_DIR, { recursive: true, force: true }));
  const FAST = { sandboxDelayMs: 300, policy: { probe: { baseMs: 250, capMs: 1_000 }, send: { baseMs: 250, capMs: 1_000, maxRetryAfterMs: 2_000 }, poll: { baseMs: 250, capMs: 1_000 } } };
  test.use({ hostOptions: { sync: { ...FAST, sandboxX12Dir: X12_DIR } } });

  for (const size of DESK_SIZES) {
    test(`at ${size.width}x${size.height}: a refused date of birth is corrected on the chart, no second patient, and the re-run is active`, async ({ desk }) => {
      const { page } = desk;
      await page.setViewportSize({ width: size.width, height: size.height });
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Janet', last: 'Doe', dob: '03/06/1937' });
      await memberIdField(page).fill('111111111');
      await choosePayer(page, 'Aetna');
      await saveCard(page);
      await runCheck(page);
      const failure = page.getByTestId('check-failure');
      await expect(failure).toBeVisible({ timeout: 20_000 });
      await expect(failure).toContainText('payer code 71');
      await expect(failure).not.toContainText(/register/i);
      await failure.getByRole('button', { name: 'Correct the patient’s details' }).click();

      const form = page.getByRole('form', { name: 'Correct the patient’s details' });
      const dob = form.getByLabel('Date of birth', { exact: true });
      // Opened at the field the payer refused, holding what is on file.
      await expect(dob).toBeFocused();
      await expect(dob).toHaveValue('03/06/1937');
      await dob.fill('03/05/1937');
      await desk.shot('correct-patient-form');
      await dob.press('Enter');
      await expect(page.getByText(/The eligibility service cannot change a patient it already has/)).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: /^Eligibility — Doe, Janet/ })).toBeVisible();
      await expect(page.getByText('Born 03/05/1937', { exact: true })).toBeVisible();
      // Focus waits on the re-run.
      const rerun = failure.getByRole('button', { name: 'Run the check again' });
      await expect(rerun).toBeFocused();
      await desk.shot('patient-corrected');
      await rerun.press('Enter');
      const summary = page.getByTestId('benefits-summary');
      await expect(summary).toBeVisible({ timeout: 20_000 });
      await expect(summary.getByTestId('plan-state')).toHaveText('Active');
      // The out-of-pocket maximum of this 271 is met: the coinsurance tile says so.
      await expect(summary.getByTestId('coinsurance')).toContainText('the out-of-pocket maximum is met');
      await summary.scrollIntoViewIfNeeded();
      await desk.shot('rerun-active-summary');

      // One chart, corrected; the audit log says who corrected it.
      await openScreen(page, 'Today');
      await expect(page.getByText('Doe, Janet')).toHaveCount(1);
      await openScreen(page, 'Audit log');
      const corrected = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Corrected', exact: true }) }).first();
      await expect(corrected).toBeVisible();
      // Low item: audit rows carry their date, even today's (a log is read later, out of context).
      const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
      await expect(corrected.getByRole('cell').first()).toContainText(today);
      await desk.shot('audit-corrected');
      expectQuietConsole(desk);
    });
  }
});

// Low item: the toast of an answer that arrived elsewhere stays on the screen it was raised on.
test.describe('the answer toast', () => {
  test.use({ hostOptions: { sync: { sandboxDelayMs: 1_500, policy: { probe: { baseMs: 250, capMs: 1_000 }, send: { baseMs: 250, capMs: 1_000, maxRetryAfterMs: 2_000 }, poll: { baseMs: 250, capMs: 1_000 } } } } });
  for (const size of DESK_SIZES) {
    test(`at ${size.width}x${size.height}: leaving the screen it appeared on takes it away; while shown, the last rows scroll clear of it`, async ({ desk }) => {
      const { page } = desk;
      await page.setViewportSize({ width: size.width, height: size.height });
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Nora', last: 'Quinn', dob: '02/14/1979' });
      await memberIdField(page).fill('W100200301');
      await choosePayer(page, 'Aetna');
      await saveCard(page);
      await runCheck(page);
      await page.keyboard.press('Alt+1');
      const toast = page.getByRole('status').filter({ hasText: 'Eligibility answer ready' });
      await expect(toast).toBeVisible({ timeout: 20_000 });
      // The page's scroll area leaves room below its content for the toast.
      const room = (await page.evaluate(`parseFloat(getComputedStyle(document.querySelector('main')).paddingBottom)`)) as number;
      expect(room).toBeGreaterThan(140);
      await desk.shot('toast-on-today');
      await page.keyboard.press('Alt+5');
      await expect(page.getByRole('heading', { level: 1, name: 'Sync' })).toBeVisible();
      await expect(toast).toHaveCount(0);
      await desk.shot('toast-gone-on-sync');
      expectQuietConsole(desk);
    });
  }
});

// Low items: at 1024 px Today cut member ids and payers ("000009…"), and Intake's plan field cut its value.
test.describe('long values at the counter', () => {
  for (const size of DESK_SIZES) {
    test(`at ${size.width}x${size.height}: Today shows a long member id and payer whole; the plan field shows its value whole`, async ({ desk }) => {
      const { page } = desk;
      await page.setViewportSize({ width: size.width, height: size.height });
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Maximilian', last: 'Featherstone', dob: '07/04/1969' });
      await memberIdField(page).fill('XJP100200300000009');
      // A long payer name, as many are.
      await choose(page.getByRole('combobox', { name: 'Payer' }), 'Blue Cross Blue Shield South Carolina Medicare');
      await expect(page.getByRole('combobox', { name: 'Payer' })).toHaveValue('Blue Cross Blue Shield South Carolina Medicare Blue');
      const plan = page.getByLabel('Plan name', { exact: true });
      await plan.fill('BlueChoice Gold 1500 PPO');
      // The whole value is in view in the field, not scrolled out of it.
      const planFits = (await plan.evaluate((el) => {
        const input = el as unknown as { scrollWidth: number; clientWidth: number };
        return input.scrollWidth <= input.clientWidth;
      })) as boolean;
      expect(planFits, 'the plan name fits its field').toBe(true);
      await desk.shot('intake-plan-name');
      // Today gives payer and plan up to three lines; this long payer with a short plan must show whole.
      await plan.fill('Gold PPO');
      await saveCard(page);

      await openScreen(page, 'Today');
      const fits = async (testId: string) =>
        page.getByTestId(testId).first().evaluate((el) => {
          const cell = el as unknown as { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number };
          return cell.scrollWidth <= cell.clientWidth && cell.scrollHeight <= cell.clientHeight + 1;
        });
      await expect(page.getByTestId('today-member-id').first()).toHaveText('XJP100200300000009');
      expect(await fits('today-member-id'), 'the member id is not cut').toBe(true);
      expect(await fits('today-payer'), 'the payer is not cut').toBe(true);
      await desk.shot('today-long-values');
      expectQuietConsole(desk);
    });
  }
});

// Item 7 on Discovery: a discovery that finds nothing offers correcting the details, not a second chart.
test.describe('correcting a patient from an empty discovery', () => {
  for (const size of DESK_SIZES) {
    test(`at ${size.width}x${size.height}: "No coverage found" offers the correction; saved, the desk is told what the service gets and focus waits on Run discovery`, async ({ desk }) => {
      const { page } = desk;
      await page.setViewportSize({ width: size.width, height: size.height });
      await openScreen(page, 'Discovery');
      const search = page.getByLabel('Find the patient', { exact: true });
      await search.fill('Ines Okafer');
      await page.getByRole('button', { name: 'Register a new patient here' }).click();
      await page.getByLabel('Date of birth', { exact: true }).fill('03/14/1980');
      await page.getByRole('button', { name: 'Register and run discovery' }).click();
      const discovery = page.getByTestId('discovery');
      await expect(discovery).toContainText('No coverage found', { timeout: 20_000 });
      await expect(discovery).not.toContainText(/register/i);
      await discovery.getByRole('button', { name: 'Correct the patient’s details' }).click();
      const form = page.getByRole('form', { name: 'Correct the patient’s details' });
      await expect(form.getByLabel('First name', { exact: true })).toBeFocused();
      await form.getByLabel('Last name', { exact: true }).fill('Okafor');
      await form.getByRole('button', { name: 'Save the corrected details' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Discovery — Okafor, Ines' })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Saved the corrected name and date of birth' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Run discovery' })).toBeFocused();
      await desk.shot('discovery-corrected');
      // Still one patient.
      await page.keyboard.press('Alt+1');
      await expect(page.getByText('Okafer')).toHaveCount(0);
      await expect(page.getByText('Okafor, Ines')).toHaveCount(1);
      expectQuietConsole(desk);
    });
  }
});
