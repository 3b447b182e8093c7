import { expect, test } from './fixtures';

const DESK = { source: 'dashboard' } as const;

// An upstream nobody listens on: the 10,000 stay queued, so this test measures the page, not a
// 10,000-record sync competing for the same two cores (the sync has its own benchmark).
test.use({ hostOptions: { upstream: { url: 'http://127.0.0.1:9', apiKey: 'sk_unreachable' } } });

// Today is virtualised: 10,000 (and one) patients, a few dozen rows in the page, every one reachable.
test('Today keeps 10,000 patients to a few dozen rows in the page and reaches the last with End', async ({ desk }) => {
  const { page, web } = desk;
  const sqlite = web.host.database.sqlite;
  // One transaction for the seed: the test is about the page, not about 10,000 commits.
  sqlite.exec('BEGIN');
  for (let i = 0; i < 10_000; i++) {
    await web.host.service.create('patients', { first_name: `Pat${String(i).padStart(5, '0')}`, last_name: 'Scale', date_of_birth: '1980-01-01' }, DESK);
  }
  await web.host.service.create('patients', { first_name: 'Zelda', last_name: 'Fitzgerald', date_of_birth: '1900-07-24' }, DESK);
  sqlite.exec('COMMIT');
  await page.reload();

  const list = page.getByRole('listbox', { name: 'Patients, 10001' });
  await expect(list).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('10001 patients today')).toBeVisible();
  const rendered = await list.getByRole('option').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(60);

  // Newest first: the last registered is on top, the first at the very end.
  await list.focus();
  await page.keyboard.press('End');
  const last = page.getByRole('option', { name: /Scale, Pat00000/ });
  await expect(last).toBeVisible();
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(last).toHaveAttribute('aria-posinset', '10001');
  expect(await list.getByRole('option').count()).toBeLessThan(60);
  await desk.shot('today-10000-end');

  // Instant filter over the 10,000 in the page.
  await page.getByLabel('Search by name, date of birth or member id').fill('fitz');
  await expect(page.getByRole('listbox', { name: 'Patients, 1' })).toBeVisible();
  await expect(page.getByRole('option', { name: /Fitzgerald, Zelda/ })).toBeVisible();
});

// Issue 31: Today's first rows used to be asked for only once the whole page's script had
// downloaded and run; the page's first script now asks while the rest is on its way.
test("asks for Today's first rows before the page's main script has loaded", async ({ desk }) => {
  const { page, web } = desk;
  await web.host.service.create('patients', { first_name: 'Ada', last_name: 'Early', date_of_birth: '1985-12-10' }, DESK);
  let releaseMain!: () => void;
  const mainHeld = new Promise<void>((resolve) => (releaseMain = resolve));
  const html = await (await page.request.get(`${web.origin}/`)).text();
  // The first screen's chunk (electron.vite.config.ts): the main entry and all it imports statically.
  const mainScript = html.match(/<script type="module" crossorigin src="\.\/(assets\/first-screen-[^"]+\.js)"/)?.[1];
  expect(mainScript, "the page's main entry script").toBeTruthy();
  await page.route(`**/${mainScript}`, async (route) => {
    await mainHeld;
    await route.continue();
  });
  const firstRows = page.waitForRequest((request) => request.url().endsWith('/bridge/desk.today') && (request.postDataJSON() as { first?: number }).first !== undefined);
  const navigation = page.reload();
  // Held main script: only the page's first script can have sent it.
  await firstRows;
  const staffAsked = page.waitForRequest((request) => request.url().endsWith('/bridge/desk.today') && (request.postDataJSON() as { first?: number }).first === undefined);
  releaseMain();
  await navigation;
  // The main script took the first rows over (not asked again) and asked for the whole list.
  await staffAsked;
  await expect(page.getByRole('option', { name: /Early, Ada/ })).toBeVisible();
});

// Issue 29: the page's first answers come before its event stream listens. A patient registered
// in between (by scanner software, another window) was told to no one and stayed off Today.
test('a patient registered while the page’s event stream was not yet listening appears on Today', async ({ desk }) => {
  const { page, web } = desk;
  let releaseStream!: () => void;
  const streamHeld = new Promise<void>((resolve) => (releaseStream = resolve));
  await page.route('**/bridge/events?*', async (route) => {
    await streamHeld;
    await route.continue();
  });
  await page.reload();
  await expect(page.getByText('No patients yet today.')).toBeVisible();
  await web.host.service.create('patients', { first_name: 'Ada', last_name: 'Between', date_of_birth: '1985-12-10' }, DESK);
  releaseStream();
  await expect(page.getByRole('option', { name: /Between, Ada/ })).toBeVisible();
});
