import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { seriousViolations } from './axe';
import { dropSchedule, tomorrow } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';


// Issue 26, items 1 and 2, from a fresh install (no default provider): a schedule export
// with the insurance columns becomes cards; the first check asks for the provider first.
for (const size of DESK_SIZES) {
  test.describe(`at ${size.width}x${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a schedule with insurance columns: cards from the schedule, the provider asked before the first check, Ready rows with copays', async ({ desk }) => {
      const { page } = desk;
      // The desk's payers are the service's directory once the first refresh is in; "Blue Cross" fits many of them.
      await expect.poll(async () => (await desk.web.host.bridge['clearinghouseEntities.list']({ limit: 100 })).data.length, { timeout: 20_000 }).toBeGreaterThan(8);
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Schedule/ }).click();
      await expect(page.getByRole('heading', { name: 'Schedule', level: 1 })).toBeVisible();

      const day = tomorrow().us;
      // Member ids the sandbox answers active with an office-visit copay (docs/sandbox.md).
      const csv = [
        'Appt ID,Appt Date,Time,Patient,DOB,Member ID,Payer,Group Number,Relationship,Visit Type',
        `E-1,${day},9:00 AM,"Doe, Jane",1/2/1980,W100200301,Aetna,G-100,Self,Office Visit`,
        `E-2,${day},9:20 AM,"Roe, Rick",3/4/1975,W 1002-00304,87726,,Child,Follow up`,
        `E-3,${day},9:40 AM,"Poe, Ann",5/6/1990,,,,,Office Visit`,
        `E-4,${day},10:00 AM,"Blue, Bea",7/8/1985,W100200305,Blue Cross,,Self,Office Visit`,
      ].join('\r\n');
      await dropSchedule(page, 'tomorrow.csv', csv);
      const preview = page.getByTestId('schedule-preview');
      await expect(preview).toContainText('tomorrow.csv: 4 rows');
      // The insurance columns are recognised by their header names, each changeable.
      await expect(page.getByLabel('Payer (name or payer id)')).toHaveValue('6');
      await expect(page.getByLabel('Group number')).toHaveValue('7');
      await expect(page.getByLabel('Relationship to subscriber')).toHaveValue('8');
      await desk.shot('preview');
      await preview.getByRole('button', { name: 'Import 4 rows' }).click();
      const result = page.getByTestId('import-result');
      await expect(result).toContainText('4 new appointments');
      await expect(result).toContainText('2 insurance cards made from the schedule');
      await expect(result).toContainText('1 need you to choose the payer');

      // "Blue Cross" is many payers: the desk picks, and the card is made then.
      const which = page.locator('tr[data-status="needs_payer"]');
      await expect(which).toContainText('Which payer?');
      await which.getByRole('button', { name: 'Choose payer' }).click();
      const choices = page.getByRole('group', { name: 'Which payer is “Blue Cross”?' });
      await expect(choices.getByRole('button').first()).toBeVisible();
      await desk.shot('which-payer');
      await choices.getByRole('button', { name: /^Blue Cross Blue Shield of Michigan · payer id/ }).click();
      await expect(which).toHaveCount(0);

      // No provider yet: each row says so, and the batch refuses rather than "done" with no checks.
      await expect(page.locator('tr[data-status="no_provider"]')).toHaveCount(4);
      await page.getByRole('button', { name: 'Check tomorrow' }).click();
      await expect(page.getByTestId('batch-panel').getByText(/^No provider set: choose one/)).toBeVisible();
      await expect(page.getByTestId('batch-progress')).toHaveCount(0);
      await desk.shot('no-provider');

      await page.getByLabel('Provider the practice bills under').selectOption({ label: `${SEED_PROVIDERS[0].name} (NPI ${SEED_PROVIDERS[0].npi})` });
      await page.getByRole('button', { name: 'Save provider' }).click();
      await expect(page.getByLabel('Provider the practice bills under')).toHaveCount(0);
      await expect(page.locator('tr[data-status="not_checked"]')).toHaveCount(3);
      await expect(page.locator('tr[data-status="no_card"]')).toHaveCount(1);

      await page.getByRole('button', { name: 'Check tomorrow' }).click();
      const progress = page.getByTestId('batch-progress');
      await expect(progress).toContainText('4 of 4 done', { timeout: 30_000 });
      await expect(progress).toContainText('(3 checks, 1 need no check)');
      const ready = page.locator('tr[data-status="ready"]');
      await expect(ready).toHaveCount(3, { timeout: 20_000 });
      for (const name of ['Doe, Jane', 'Roe, Rick', 'Blue, Bea']) {
        await expect(ready.filter({ hasText: name })).toContainText(/Copay \$\d+\.\d{2}/);
        await expect(ready.filter({ hasText: name })).toContainText('Card from the schedule');
      }
      await expect(page.locator('tr[data-status="no_card"]')).toContainText('Poe, Ann');
      await page.getByTestId('batch-progress').scrollIntoViewIfNeeded();
      await desk.shot('ready');
      expect(await seriousViolations(page), 'serious accessibility violations on the Schedule screen').toEqual([]);
      expect(desk.consoleProblems()).toEqual([]);
    });
  });
}
