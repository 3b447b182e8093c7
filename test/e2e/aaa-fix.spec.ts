import { choosePayer, fillNewPatient, memberIdField, openScreen, runCheck, saveCard } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';

// (c) An AAA 72 member id → the fix hint → edit → re-run succeeds.
test('a rejected member id shows the fix, and one click re-runs with the corrected id', async ({ desk }) => {
  const { page } = desk;
  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'Maria', last: 'Garcia', dob: '03/14/1978' });
  await choosePayer(page, 'Aetna');
  // The sandbox rejects member ids starting AAA72 with AAA 72 (docs/sandbox.md).
  await memberIdField(page).fill('AAA72-001');
  await saveCard(page);
  await runCheck(page);

  const failure = page.getByTestId('check-failure');
  await expect(failure).toBeVisible({ timeout: 20_000 });
  await expect(failure).toContainText('The payer did not accept the member id.');
  await expect(failure).toContainText(/re-read the member id from the card/i);
  await expect(failure).toContainText('payer code 72');
  await desk.shot('aaa72-fix');

  const corrected = page.getByLabel('Member id, as printed on the card');
  await expect(corrected).toHaveValue('AAA72-001');
  await corrected.fill('W284619375');
  await page.getByRole('button', { name: 'Save the correction and run again' }).click();

  const summary = page.getByTestId('benefits-summary');
  await expect(summary).toBeVisible({ timeout: 20_000 });
  await expect(summary.getByTestId('plan-state')).toHaveText('Active');
  await expect(summary).toContainText('Member id W284619375');
  // The corrected card is the patient's newest; the rejected one is kept for the record.
  await expect(page.getByLabel('Card', { exact: true }).locator('option')).toHaveCount(2);
  await desk.shot('aaa72-rerun-success');
});

// Issue 26, item 3: the corrected card is the card from then on, on every screen and on coming back.
for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    test('after a correction answered Active, coming back shows the corrected card and its answer, the old card as an earlier version', async ({ desk }) => {
      const { page } = desk;
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Ines', last: 'Okafor', dob: '07/02/1981' });
      await choosePayer(page, 'Aetna');
      await memberIdField(page).fill('AAA72-002');
      await saveCard(page);
      await runCheck(page);
      await expect(page.getByTestId('check-failure')).toBeVisible({ timeout: 20_000 });
      await page.getByLabel('Member id, as printed on the card').fill('W284619376');
      await page.getByRole('button', { name: 'Save the correction and run again' }).click();
      await expect(page.getByTestId('benefits-summary').getByTestId('plan-state')).toHaveText('Active', { timeout: 20_000 });

      const cardSelect = page.getByLabel('Card', { exact: true });
      await expect(cardSelect.locator('option', { hasText: 'AAA72-002' })).toHaveText(/earlier version$/);
      await expect(cardSelect.locator('option', { hasText: 'W284619376' })).not.toHaveText(/earlier version/);

      const showsTheCorrectedCard = async () => {
        await expect(page.getByRole('heading', { level: 1, name: /^Eligibility — / })).toBeVisible();
        await expect(cardSelect.locator('option:checked')).toContainText('W284619376');
        await expect(page.getByTestId('benefits-summary').getByTestId('plan-state')).toHaveText('Active');
        await expect(page.getByTestId('check-failure')).toHaveCount(0);
      };
      // Away to Discovery and back by keys, as the desk moves: the same patient, the corrected card.
      await page.keyboard.press('Alt+4');
      await expect(page.getByRole('heading', { level: 1, name: /^Discovery — / })).toBeVisible();
      await expect(page.getByLabel('Card', { exact: true }).locator('option:checked')).toContainText('W284619376');
      await page.keyboard.press('Alt+3');
      await showsTheCorrectedCard();
      // Today shows the corrected card too, and opens it.
      await page.keyboard.press('Alt+1');
      const row = page.getByRole('option', { name: /Okafor/ });
      await expect(row).toContainText('W284619376');
      await row.click();
      await showsTheCorrectedCard();
      await desk.shot('corrected-card-after-coming-back');

      // A plain re-run sends the corrected id, never the rejected one.
      await page.getByRole('button', { name: 'Check eligibility' }).click();
      await expect(page.getByRole('listitem').filter({ hasText: 'W284619376' })).toHaveCount(2, { timeout: 20_000 });
      await expect(page.getByRole('listitem').filter({ hasText: 'AAA72-002' })).toHaveCount(1);

      // The old failure, shown again from the history, says it is about an earlier version, and
      // its correction starts from the card in use now.
      await page.getByRole('listitem').filter({ hasText: 'AAA72-002' }).getByRole('button', { name: 'Show', exact: true }).click();
      await expect(page.getByTestId('check-failure')).toBeVisible();
      await expect(page.getByText(/^This answer is for an earlier version of the card \(member id AAA72-002\)\. Checks now use the current card/)).toBeVisible();
      await expect(page.getByLabel('Member id, as printed on the card')).toHaveValue('W284619376');
      await page.getByText(/^This answer is for an earlier version/).scrollIntoViewIfNeeded();
      await desk.shot('earlier-version-answer');
    });
  });
}
