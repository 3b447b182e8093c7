import { checkOfficeVisitForEstimate, openScreen } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';

const FEES = 'Visit type,Payer,Allowed\nOffice visit,Aetna,125.00\nOffice visit,default,100\nLab,default,40\n';

// Issue 30, items 1 and 2: import a fee schedule in Settings; check a patient; "Collect today" with its steps.
for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    test('a fee schedule imported in Settings (a bad file refused row by row), then "Collect today" on the summary with its steps', async ({ desk }) => {
      const { page } = desk;
      await openScreen(page, 'Settings');
      const panel = page.getByTestId('fee-schedule');
      await expect(panel).toContainText('No fee schedule yet');
      const file = panel.getByTestId('fee-schedule-file');
      await file.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('Visit type,Payer,Allowed\nOffice visit,Aetna,-5\nLab,Nowhere Health,40\n') });
      await expect(panel.getByTestId('fee-schedule-errors')).toContainText('Row 2 has a negative allowed amount');
      await expect(panel.getByTestId('fee-schedule-errors')).toContainText('Row 3 names a payer that is not in the payer directory');
      await expect(panel).toContainText('No fee schedule yet');
      await panel.scrollIntoViewIfNeeded();
      await desk.shot('fee-schedule-refused');
      await file.setInputFiles({ name: 'fees.csv', mimeType: 'text/csv', buffer: Buffer.from(FEES) });
      await expect(panel).toContainText('Imported 3 amounts from fees.csv.');
      await expect(panel.getByRole('table', { name: 'Fee schedule' }).getByRole('row')).toHaveCount(4);
      await desk.shot('fee-schedule');
      // One amount at a time: a bad amount named at its field, a good one added, then removed.
      const editor = panel.getByRole('form', { name: 'Add or change an amount' });
      await editor.getByLabel('Visit type or code').fill('Flu shot');
      await editor.getByLabel('Allowed ($)').fill('-35');
      await editor.getByRole('button', { name: 'Save amount' }).click();
      await expect(editor).toContainText('negative allowed amount');
      await editor.getByLabel('Allowed ($)').fill('35');
      await editor.getByRole('button', { name: 'Save amount' }).click();
      await expect(panel).toContainText('Saved the amount for Flu shot.');
      await expect(panel.getByRole('table', { name: 'Fee schedule' }).getByRole('row')).toHaveCount(5);
      await desk.shot('fee-schedule-edited');
      await panel.getByRole('button', { name: 'Remove the amount for Flu shot, default payer' }).click();
      await expect(panel.getByRole('table', { name: 'Fee schedule' }).getByRole('row')).toHaveCount(4);

      // The sandbox's own answer for this member, through the same arithmetic, with Aetna's $125 row.
      const { tile, expected } = await checkOfficeVisitForEstimate(page, 12500);
      await expect(tile.getByTestId('collect-today-visit-type')).toHaveValue('Office visit');
      await expect(tile.getByTestId('collect-today-amount')).toHaveText(expected.headline.replace('Collect today: ', ''));
      await expect(tile.getByTestId('collect-today-steps')).toContainText('$125.00 expected allowed amount (fee schedule)');
      await expect(tile.getByTestId('collect-today-steps')).toContainText(expected.steps.map((s) => s.text).join('; '));
      await tile.scrollIntoViewIfNeeded();
      await desk.shot('collect-today');
      // Another visit type: the default row's amount; none: the copay alone, said so.
      await tile.getByTestId('collect-today-visit-type').selectOption('Lab');
      await expect(tile.getByTestId('collect-today-steps')).toContainText('$40.00 expected allowed amount (fee schedule)');
      await tile.getByTestId('collect-today-visit-type').selectOption('');
      await expect(tile.getByTestId('collect-today-steps')).toContainText('no fee schedule amount for this visit: the copay alone');
    });
  });
}
