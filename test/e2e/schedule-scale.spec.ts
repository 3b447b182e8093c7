import { createDayOfVisits } from '@test/support/batch/day-of-visits';
import { tomorrow } from './desk-actions';
import { expect, test } from './fixtures';

// An upstream nobody listens on: the day's records stay queued, so the page is what is tested.
test.use({ hostOptions: { upstream: { url: 'http://127.0.0.1:9', apiKey: 'sk_unreachable' } } });

// Issue 31: a day of 1,000 appointments keeps a few dozen worklist rows in the page, as Today
// does; every row is reached by scrolling, a row with its payer choice open stays while
// scrolled away, and the printed worklist is the whole day.
test('a worklist of 1,000 appointments keeps the rows near the view in the page, reaches the last, and prints them all', async ({ desk }) => {
  test.setTimeout(180_000);
  const { page, web } = desk;
  const sqlite = web.host.database.sqlite;
  sqlite.exec('BEGIN');
  await createDayOfVisits(web.host, tomorrow().iso, 1000);
  sqlite.exec('COMMIT');

  for (const size of [{ width: 1366, height: 820 }, { width: 1024, height: 768 }]) {
    await page.setViewportSize(size);
    await page.reload();
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Schedule/ }).click();
    const rows = page.locator('tr[data-status]');
    await expect(rows.first()).toBeVisible({ timeout: 60_000 });
    const rendered = await rows.count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(100);
    await desk.shot(`schedule-1000-top-${size.width}`);
  }

  // A Good Faith Estimate form opened on the first row stays, with the row, while the day scrolls by.
  const first = page.locator('tr[data-status]').first();
  const firstId = await first.getAttribute('data-testid');
  await first.getByRole('button', { name: 'Self-pay: GFE' }).click();
  await first.getByRole('button', { name: 'Issue GFE' }).click();
  await expect(first.getByRole('button', { name: 'Issue GFE' })).toHaveAttribute('aria-expanded', 'true');
  const main = page.locator('.main');
  await main.evaluate((element) => (element.scrollTop = element.scrollHeight));
  // The day's last appointment (the latest time of the last group) comes into the page.
  const worklist = await web.host.bridge['appointments.worklist']({ date: tomorrow().iso });
  const last = worklist.rows[worklist.rows.length - 1].appointment.id;
  await expect(page.getByTestId(`worklist-row-${last}`)).toBeInViewport({ timeout: 10_000 });
  expect(await page.locator('tr[data-status]').count()).toBeLessThan(100);
  await expect(page.getByTestId(firstId!).getByRole('button', { name: 'Issue GFE' })).toHaveAttribute('aria-expanded', 'true');
  await desk.shot('schedule-1000-end-1024');

  // Printing: every appointment is in the page while the print dialog reads it.
  // (A string: DOM types are the page's, not this file's.)
  const printed = await page.evaluate<number>(`(() => {
    window.dispatchEvent(new Event('beforeprint'));
    const count = document.querySelectorAll('tr[data-status]').length;
    window.dispatchEvent(new Event('afterprint'));
    return count;
  })()`);
  expect(printed).toBe(1000);
});
