import { openScreen } from './desk-actions';
import { expect, test, type Desk } from './fixtures';

/**
 * Issue 26, items 7–10 and their Low items, in Chromium against the real host: a patient's
 * details corrected, the patient search's keys, focus after the camera, the PIN.
 */
const SIZES = [
  { name: '1366x820', width: 1366, height: 820 },
  { name: '1024x768', width: 1024, height: 768 },
] as const;

function expectQuietConsole(desk: Desk): void {
  expect(desk.consoleProblems(), 'console errors or warnings').toEqual([]);
}

// Item 10: the PIN is typed twice before it is saved, and the lock's wait counts down by itself.
test.describe('the PIN', () => {
  test.use({ hostOptions: { pinPolicy: { freeTries: 1, firstWaitMs: 4_000, maxWaitMs: 10_000 } } });
  for (const size of SIZES) {
    test(`at ${size.name}: a PIN typed twice differently is not saved; the wait ticks down and ends by itself`, async ({ desk }) => {
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
