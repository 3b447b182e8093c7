import { choosePayer, fillNewPatient, memberIdField, openScreen, runCheck, saveCard } from './desk-actions';
import { expect, test as base } from './fixtures';
import { withUpstream, type Upstream } from './upstream';

const test = base.extend<{ upstream: Upstream }>({
  upstream: async ({}, use) => withUpstream(use),
  hostOptions: async ({ upstream }, use) => use({ upstream: { url: upstream.url, apiKey: upstream.apiKey } }),
});

// (b) Upstream stopped → intake and check are queued and marked so → upstream back →
// synced and the result shown without a reload.
test('work done while the upstream is down is queued, marked, and synced with its result when it is back', async ({ desk, upstream }) => {
  const { page } = desk;
  await upstream.stop();
  // Proves there is no reload: a page reload would lose this.
  await page.evaluate(() => ((globalThis as unknown as { sameDocument: boolean }).sameDocument = true));

  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'James', last: 'Smith', dob: '11/02/1965' });
  await choosePayer(page, 'Cigna');
  await memberIdField(page).fill('U51837264');
  await saveCard(page);

  const offline = page.getByRole('status').filter({ hasText: 'Offline.' });
  await expect(offline).toBeVisible({ timeout: 20_000 });
  await runCheck(page);
  const pending = page.getByTestId('check-pending');
  await expect(pending).toContainText('Queued.');
  await expect(pending).toContainText('Queued');
  await desk.shot('offline-check-queued');

  await openScreen(page, 'Today');
  const row = page.getByRole('option', { name: /Smith, James/ });
  await expect(row).toContainText('Sending');
  await expect(row).toContainText('Checking…');
  await desk.shot('offline-today-queued');

  await openScreen(page, 'Sync');
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Waiting to send' }).getByRole('listitem')).not.toHaveCount(0);
  // What exists only here (issue 29): the count and since when; leaving the page asks first.
  await expect(page.getByTestId('only-here')).toContainText(/\d+ records exist only on this computer, the oldest since/);
  await expect(page.getByTestId('quit-warning')).toHaveText(/records exist only on this computer \(waiting since .+\): the service cannot be reached/);
  await desk.shot('offline-sync');
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1366, height: 820 });
  await desk.shot('offline-sync-1366');
  await page.setViewportSize({ width: 1024, height: 768 });
  await desk.shot('offline-sync-1024');
  if (size) await page.setViewportSize(size);

  // Back on the patient's screen, still offline, the desk waits for the answer.
  await openScreen(page, 'Today');
  await row.click();
  await expect(page.getByTestId('check-pending')).toContainText('Queued.');

  await upstream.start();
  // The same screen turns into the answer by itself: sync, poll, records.changed, re-render.
  const summary = page.getByTestId('benefits-summary');
  await expect(summary.getByTestId('plan-state')).toHaveText('Active', { timeout: 30_000 });
  await expect(offline).toBeHidden();
  await summary.scrollIntoViewIfNeeded();
  await desk.shot('back-online-synced');

  await openScreen(page, 'Today');
  await expect(row).toContainText('Active');
  await expect(row).not.toContainText('Sending');
  expect(await page.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

// Issue 29, item 6, at the sign-in screen: nobody is signed in, yet closing the tab would leave
// unsent records behind all the same, so the page still asks first.
test.describe('with nobody signed in', () => {
  test.use({ staff: { manager: { name: 'Maria Manager', pin: '246813' } } });

  test('leaving the sign-in screen while offline with records only here asks first', async ({ desk, upstream }) => {
    const { page } = desk;
    await upstream.stop();
    const created = await page.evaluate(async () => {
      const w = globalThis as unknown as { coverdesk: { patients: { create(input: object): Promise<{ ok: boolean }> } } };
      return w.coverdesk.patients.create({ first_name: 'James', last_name: 'Smith', date_of_birth: '1965-11-02' });
    });
    expect(created.ok).toBe(true);
    await page.getByRole('button', { name: 'Switch user' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Who is at the desk?' })).toBeVisible();
    await expect(page.getByTestId('quit-warning')).toHaveText(/^1 record exists only on this computer \(waiting since .+\): the service cannot be reached/, { timeout: 20_000 });
  });
});
