import { clearinghouse_entities } from '@src/main/db/schema';
import { choosePayer, fillNewPatient, memberIdField, openScreen, runCheck, saveCard } from './desk-actions';
import { expect, test } from './fixtures';

// Sync: a record the upstream refuses is shown with its message, Retry sends it again,
// Discard asks first — and a dependent must go before what it depends on.
test('a refused card shows the service’s reason on Sync, with Retry and Discard that asks first', async ({ desk }) => {
  const { page, web } = desk;
  // A payer this desk's cache still lists but the upstream no longer knows (a stale cache).
  // Added after the first reference refresh, which would otherwise replace the cache under it.
  await expect.poll(async () => (await web.host.bridge['sync.status']({})).online, { timeout: 15_000 }).toBe(true);
  web.host.database.db.insert(clearinghouse_entities).values({ id: 'che_GONE0000000000000000000001', name: 'Retired Payer', payer_id: '00000' }).run();

  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'Robert', last: 'Johnson', dob: '01/30/1951' });
  await choosePayer(page, 'Retired Payer');
  await memberIdField(page).fill('H47382910');
  await saveCard(page);
  await runCheck(page);

  // The nav tells the desk at once that something needs a person.
  const nav = page.getByRole('navigation', { name: 'Screens' });
  await expect(nav.getByRole('button', { name: /Sync.*need attention/ })).toBeVisible({ timeout: 20_000 });
  await openScreen(page, 'Sync');
  const attention = page.getByRole('region', { name: 'Needs attention' });
  const card = attention.getByTestId('sync-item').filter({ hasText: 'The service refused it:' });
  await expect(card).toContainText('The service refused it:');
  await expect(card).toContainText('insurance_carrier_ids');
  const check = attention.getByTestId('sync-item').filter({ hasText: 'Waiting for another item' });
  await expect(check).toBeVisible();
  await desk.shot('sync-failed-item');

  await card.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: /will be sent again/ })).toBeVisible();
  await expect(card).toContainText('The service refused it:', { timeout: 20_000 });

  // Discard asks first; Cancel keeps the item.
  await check.getByRole('button', { name: 'Discard…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard this item?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await desk.shot('sync-discard-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(check).toBeVisible();

  await check.getByRole('button', { name: 'Discard…' }).click();
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(check).toBeHidden();
  await expect(page.getByText(/was discarded: it will not be sent/)).toBeVisible();
});
