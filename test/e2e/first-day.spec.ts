import * as schema from '@src/main/db/schema';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { startSandbox, type Sandbox } from '@src/main/sandbox/start-sandbox';
import { scannedCardWithCopay } from './card-images';
import { chooseFront, dropSchedule, firstStart, memberIdField, runCheck, saveReadCard, tomorrow } from './desk-actions';
import { DESK_SIZES, expect, READING_TIMEOUT_MS, test } from './fixtures';

/**
 * Issue 26's "Done when": a practice's first day, in order, from an empty data folder, at the
 * two window sizes a counter has. Setup (the provider), tomorrow's schedule with its
 * insurance checked, a walk-in carded from a photo, a rejection corrected and come back to,
 * then going live on a second sandbox standing in for the real service, where a patient
 * registered before the switch is checked. Each piece has its own spec; this one proves they
 * hold together.
 */

const OFFICE_VISIT = { search: 'office visit', label: 'Professional physician visit office' } as const;
const LIVE_KEY = 'sk_e2e_live_service';

for (const size of DESK_SIZES) {
  test.describe(`at ${size.width}x${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, staff: 'first_start' });

    let live: Sandbox | undefined;
    test.afterEach(async () => {
      await live?.close();
      live = undefined;
    });

    test('a practice’s first day', async ({ desk }) => {
      test.setTimeout(180_000);
      const { page } = desk;
      const provider = SEED_PROVIDERS[0];
      const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });

      // --- First start: the manager's name and PIN on one screen, then the desk (issue 28).
      await desk.shot('00-first-start');
      await firstStart(page, { name: 'Maria Manager', pin: '135790' });

      // --- Setup: a fresh install asks for the provider the practice bills under before any check.
      await expect(heading('Today')).toBeVisible();
      // "Blue Cross" below fits many payers only once the service's directory has arrived.
      await expect.poll(async () => (await desk.web.host.bridge['clearinghouseEntities.list']({ limit: 100 })).data.length, { timeout: 20_000 }).toBeGreaterThan(8);
      await page.keyboard.press('Alt+8');
      await expect(heading('Schedule')).toBeVisible();
      const batch = page.getByTestId('batch-panel');
      await expect(batch.getByText(/^No provider set: choose the provider the practice bills under/)).toBeVisible();
      const providerSelect = page.getByLabel('Provider the practice bills under');
      await providerSelect.focus();
      await providerSelect.selectOption({ label: `${provider.name} (NPI ${provider.npi})` });
      await desk.shot('01-setup-provider');
      // A select does not submit on Enter: Tab on to the button, as a keyboard user does.
      await providerSelect.press('Tab');
      await expect(page.getByRole('button', { name: 'Save provider' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(providerSelect).toHaveCount(0);

      // --- Tomorrow's schedule, exported with its insurance columns.
      const day = tomorrow().us;
      // Member ids the sandbox answers (docs/sandbox.md): these W… active on a plan with an office-visit copay (planFor), AAA72… rejected (payer code 72).
      const csv = [
        'Appt ID,Appt Date,Time,Patient,DOB,Member ID,Payer,Group Number,Relationship,Visit Type',
        `F-1,${day},8:40 AM,"Lind, Hana",2/3/1982,W300400500,Aetna,G-300,Self,Office Visit`,
        `F-2,${day},9:00 AM,"Ortiz, Paul",6/7/1974,W 3004-00502,87726,,Self,Follow up`,
        `F-3,${day},9:20 AM,"Brook, Lena",9/10/1990,W300400503,Blue Cross,,Self,Office Visit`,
        `F-4,${day},9:40 AM,"Marsh, Owen",4/5/1968,AAA72-301,Aetna,,Self,Office Visit`,
        `F-5,${day},10:00 AM,"Vale, Ida",11/12/1995,,,,,Office Visit`,
      ].join('\r\n');
      await dropSchedule(page, 'tomorrow.csv', csv);
      const preview = page.getByTestId('schedule-preview');
      await expect(preview).toContainText('tomorrow.csv: 5 rows');
      await expect(page.getByLabel('Payer (name or payer id)')).toHaveValue('6');
      await desk.shot('02-schedule-preview');
      await preview.getByRole('button', { name: 'Import 5 rows' }).click();
      const result = page.getByTestId('import-result');
      await expect(result).toContainText('5 new appointments');
      await expect(result).toContainText('3 insurance cards made from the schedule');
      await expect(result).toContainText('1 need you to choose the payer');

      // "Blue Cross" is many payers: the desk says which.
      const which = page.locator('tr[data-status="needs_payer"]');
      await which.getByRole('button', { name: 'Choose payer' }).click();
      const choices = page.getByRole('group', { name: 'Which payer is “Blue Cross”?' });
      await expect(choices.getByRole('button').first()).toBeVisible();
      await desk.shot('03-which-payer');
      await choices.getByRole('button', { name: /^Blue Cross Blue Shield of Michigan · payer id/ }).click();
      await expect(which).toHaveCount(0);

      // --- Check tomorrow: Ready rows with copays, the rejection and the missing card first.
      await page.getByRole('button', { name: 'Check tomorrow' }).click();
      const progress = page.getByTestId('batch-progress');
      await expect(progress).toContainText('5 of 5 done (4 checks, 1 need no check)', { timeout: 30_000 });
      const ready = page.locator('tr[data-status="ready"]');
      await expect(ready).toHaveCount(3, { timeout: 20_000 });
      for (const name of ['Lind, Hana', 'Ortiz, Paul', 'Brook, Lena']) {
        await expect(ready.filter({ hasText: name })).toContainText(/Copay \$\d+\.\d{2}/);
        await expect(ready.filter({ hasText: name })).toContainText('Card from the schedule');
      }
      const rejected = page.locator('tr[data-status="rejected"]');
      await expect(rejected).toContainText('Marsh, Owen');
      await expect(page.locator('tr[data-status="no_card"]')).toContainText('Vale, Ida');
      await expect(page.locator('tr[data-status]').first()).not.toHaveAttribute('data-status', 'ready');
      await desk.shot('04-worklist-checked');
      await ready.last().scrollIntoViewIfNeeded();
      await desk.shot('05-worklist-ready-rows');

      // --- A walk-in with a card: Intake by its key, the photo read, the member offered as the patient.
      const card = await scannedCardWithCopay();
      await page.keyboard.press('Alt+2');
      await expect(heading('Intake')).toBeVisible();
      await chooseFront(page, { name: card.file, mimeType: card.content_type, buffer: card.bytes });
      await expect(page.getByText(/^Read the card/)).toBeVisible({ timeout: READING_TIMEOUT_MS });
      await expect(memberIdField(page)).toHaveValue(card.truth.member_id);
      const offer = page.getByRole('button', { name: /^Use “.+” as the patient’s name$/ });
      await offer.focus();
      await page.keyboard.press('Enter');
      const dob = page.getByLabel('Date of birth', { exact: true });
      await expect(dob).toBeFocused();
      await page.keyboard.type('05/17/1979');
      const walkIn = { first: await page.getByLabel('First name', { exact: true }).inputValue(), last: await page.getByLabel('Last name', { exact: true }).inputValue() };
      expect(walkIn.first).not.toBe('');
      await desk.shot('06-walk-in-read');
      await memberIdField(page).scrollIntoViewIfNeeded();
      await desk.shot('06b-walk-in-card-beside-photo');
      await saveReadCard(page);
      await expect(heading(`Eligibility — ${walkIn.last}, ${walkIn.first}`)).toBeVisible();
      await runCheck(page, { serviceType: OFFICE_VISIT });
      const summary = page.getByTestId('benefits-summary');
      await expect(summary.getByTestId('plan-state')).toHaveText('Active', { timeout: 20_000 });
      await expect(summary.getByTestId('copay')).toContainText(/\$\d+\.\d{2}/);
      await desk.shot('07-walk-in-active');

      // --- The rejection: the worklist opens the fix, the corrected id is saved and run again.
      await page.keyboard.press('Alt+8');
      await expect(heading('Schedule')).toBeVisible();
      await rejected.getByRole('button', { name: 'Open the fix' }).click();
      const failure = page.getByTestId('check-failure');
      await expect(failure).toContainText('The payer did not accept the member id.');
      const correction = page.getByLabel('Member id, as printed on the card');
      await expect(correction).toHaveValue('AAA72-301');
      await desk.shot('08-rejection');
      await correction.fill('W300400504');
      await page.getByRole('button', { name: 'Save the correction and run again' }).click();
      await expect(summary.getByTestId('plan-state')).toHaveText('Active', { timeout: 20_000 });
      await expect(summary).toContainText('Member id W300400504');
      await desk.shot('09-rejection-corrected');

      // Coming back to it later (Today, then the schedule): the row is Ready, and it opens on the corrected card and its answer.
      await page.keyboard.press('Alt+1');
      await expect(heading('Today')).toBeVisible();
      await expect(page.getByRole('option', { name: /Marsh, Owen/ })).toContainText('W300400504');
      await page.keyboard.press('Alt+8');
      const owen = ready.filter({ hasText: 'Marsh, Owen' });
      await expect(owen).toContainText(/Copay \$\d+\.\d{2}/, { timeout: 20_000 });
      await expect(rejected).toHaveCount(0);
      await owen.getByRole('button', { name: 'Open' }).click();
      await expect(heading(/^Eligibility — Marsh, Owen/)).toBeVisible();
      const cardSelect = page.getByLabel('Card', { exact: true });
      await expect(cardSelect.locator('option:checked')).toContainText('W300400504');
      await expect(cardSelect.locator('option', { hasText: 'AAA72-301' })).toHaveText(/earlier version$/);
      await expect(summary.getByTestId('plan-state')).toHaveText('Active');
      await expect(failure).toHaveCount(0);
      await desk.shot('10-rejection-come-back');
      await cardSelect.scrollIntoViewIfNeeded();
      await desk.shot('10b-rejection-come-back-card');

      // --- Going live: a second sandbox stands in for the practice's real service, set in Settings as a person would.
      live = await startSandbox({ apiKey: LIVE_KEY, port: 0, delayMs: 300 });
      await page.keyboard.press('Alt+6');
      await expect(heading('Settings')).toBeVisible();
      await page.getByLabel('Service address').fill(live.url);
      await page.getByLabel('API key').fill(LIVE_KEY);
      await desk.shot('11-settings-going-live');
      await page.getByLabel('API key').press('Enter');
      // Records still waiting for the sandbox make the desk ask first; sent to the new service if so.
      const connected = page.getByTestId('connection-result');
      const confirm = page.getByRole('dialog', { name: 'Switch eligibility service?' });
      await expect(connected.or(confirm)).toBeVisible({ timeout: 20_000 });
      if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Switch and send them there' }).click();
      await expect(connected).toContainText('Connected.');
      await expect(page.getByRole('region', { name: 'Sandbox mode' })).toHaveCount(0);
      // The badge follows the sync worker: "Not tried yet" until it has reached the new service.
      await expect(page.getByRole('heading', { name: 'Eligibility service' }).locator('xpath=..').getByText('Connected', { exact: true })).toBeVisible({ timeout: 20_000 });
      await desk.shot('12-settings-live');

      // The walk-in, registered with the sandbox before the switch, is checked on the live service.
      await page.keyboard.press('Alt+1');
      const search = page.getByLabel('Search by name, date of birth or member id');
      await search.fill(walkIn.last);
      await search.press('Enter');
      await expect(heading(`Eligibility — ${walkIn.last}, ${walkIn.first}`)).toBeVisible();
      await runCheck(page, { serviceType: OFFICE_VISIT });
      await expect(page.getByRole('listitem').filter({ hasText: card.truth.member_id })).toHaveCount(2, { timeout: 20_000 });
      await expect(summary.getByTestId('plan-state')).toHaveText('Active', { timeout: 30_000 });
      await desk.shot('13-live-check-active');

      // The live service received the patient, the card and its photo (once), then the check.
      const liveDb = live.database.db;
      const livePatients = liveDb.select().from(schema.patients).all();
      expect(livePatients.map((p) => `${p.last_name}, ${p.first_name}`)).toEqual([`${walkIn.last}, ${walkIn.first}`]);
      const liveCards = liveDb.select().from(schema.insurance_cards).all();
      expect(liveCards.map((c) => c.member_id)).toEqual([card.truth.member_id]);
      expect(liveCards[0].front_photo_object_key).toMatch(/^[0-9a-f]{64}\.jpg$/);
      expect(liveDb.select().from(schema.photos).all()).toHaveLength(1);
      expect(liveDb.select().from(schema.checks).all().map((c) => c.status)).toEqual(['success']);

      // Sync has nothing stuck, and Today's row says Active, not "Checking…".
      await page.keyboard.press('Alt+5');
      await expect(heading('Sync')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Needs attention' }).getByTestId('sync-item')).toHaveCount(0);
      await desk.shot('14-sync-after-switch');
      await page.keyboard.press('Alt+1');
      await search.fill('');
      const walkInRow = page.getByRole('option', { name: new RegExp(`${walkIn.last}, ${walkIn.first}`) });
      await expect(walkInRow).toContainText('Active');
      // Nothing of the name is cut, at either size (it was "Fitzgerald, Jenn…" at 1024 px).
      const nameCut = await walkInRow.locator('.today-row__name').evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight);
      expect(nameCut, 'the walk-in’s name is cut on Today').toBe(false);
      await desk.shot('15-today-end-of-day');
      expect(desk.consoleProblems()).toEqual([]);
    });
  });
}
