import { fillNewPatient, memberIdField, openScreen } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';

const MB = 1024 * 1024;

test.describe('a nearly full disk', () => {
  test.use({ hostOptions: { diskSpace: { freeSpace: async () => 120 * MB } } });

  test('warns on every screen before a save is refused', async ({ desk }) => {
    const { page } = desk;
    for (const size of DESK_SIZES) {
      await page.setViewportSize(size);
      await openScreen(page, 'Intake');
      await expect(page.getByTestId('disk-banner')).toContainText('The disk is nearly full.');
      await desk.shot(`disk-nearly-full-${size.width}`);
      await openScreen(page, 'Sync');
      await expect(page.getByText('The disk is nearly full (less than 500 MB free).')).toBeVisible();
      await desk.shot(`sync-disk-nearly-full-${size.width}`);
    }
  });
});

test('a save the disk has no room for says so on intake, and nothing is saved', async ({ desk }) => {
  const { page, web } = desk;
  const sqlite = web.host.database.sqlite;
  const count = () => (sqlite.prepare('SELECT count(*) AS n FROM patients').get() as { n: number }).n;
  // SQLite's page limit at the file's size: a full disk without filling one.
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);
  for (let n = 0; n < 2_000; n += 1) {
    const refused = await web.host.service
      .create('patients', { first_name: `Fill${n}`, last_name: 'Up', date_of_birth: '1980-01-01' }, { source: 'api' })
      .then(
        () => false,
        () => true,
      );
    if (refused) break;
  }
  const before = count();

  for (const size of DESK_SIZES) {
    await page.setViewportSize(size);
    await openScreen(page, 'Intake');
    await fillNewPatient(page, { first: 'Nina', last: 'Simone', dob: '02/21/1963' });
    await memberIdField(page).fill('XGH123456789');
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText('The disk is full: free some space; nothing was saved.')).toBeVisible();
    await desk.shot(`intake-disk-full-${size.width}`);
  }
  expect(count()).toBe(before);
});
