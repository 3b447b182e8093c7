import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { cardOnDesk } from './card-images';
import { chooseFront, fillNewPatient, memberIdField, openScreen, saveReadCard } from './desk-actions';
import { DESK_SIZES, expect, READING_TIMEOUT_MS, test, type Desk } from './fixtures';

// Issue 26, items 5 and 6 (and two Low ones): an intake keeps its draft until it is saved or
// discarded, starts with no patient, and asks before saving what looks wrong.

function count(desk: Desk, table: 'patients' | 'insurance_cards'): number {
  return (desk.web.host.database.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

const intakeHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'Intake' });
const eligibilityHeading = (page: Page) => page.getByRole('heading', { level: 1, name: /^Eligibility — / });

/** The reading's summary, e.g. "… 2 fields were hard to read …": the number of fields it names. */
async function hardToReadCount(page: Page): Promise<number> {
  const text = await page.getByText(/^Read the card/).textContent();
  const match = /(\d+) fields? (?:was|were) hard to read/.exec(text ?? '');
  return match ? Number(match[1]) : 0;
}


for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a card half done in Intake is kept across screens until saved, and the next intake starts empty', async ({ desk }) => {
      const { page } = desk;
      const card = await cardOnDesk();
      let previews = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/bridge/extractions.preview')) previews++;
      });
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Jennifer', last: 'Fitzgerald', dob: '04/11/1979' });
      await chooseFront(page, { name: card.file, mimeType: card.content_type, buffer: card.bytes });
      await expect(page.getByText(/^Read the card/)).toBeVisible({ timeout: READING_TIMEOUT_MS });
      await expect(memberIdField(page)).toHaveValue(card.truth.member_id);
      await page.getByLabel('Group number', { exact: true }).fill('TYPED-7');
      const marks = await page.locator('.field--review').count();

      // Away to Today and back by the keyboard: the photo, the names, what was read and typed, all still there.
      await page.keyboard.press('Alt+1');
      await expect(page.getByRole('heading', { level: 1, name: 'Today' })).toBeVisible();
      await page.keyboard.press('Alt+2');
      await expect(intakeHeading(page)).toBeVisible();
      await expect(page.getByTestId('intake-kept-draft')).toContainText('The card you started is kept as you left it');
      await expect(page.getByRole('img', { name: 'Front of the card, as captured' })).toBeVisible();
      await expect(page.getByLabel('First name', { exact: true })).toHaveValue('Jennifer');
      await expect(page.getByLabel('Date of birth', { exact: true })).toHaveValue('04/11/1979');
      await expect(memberIdField(page)).toHaveValue(card.truth.member_id);
      await expect(page.getByLabel('Group number', { exact: true })).toHaveValue('TYPED-7');
      await expect(page.locator('.field--review')).toHaveCount(marks);
      // Not read again: the draft kept the reading.
      expect(previews).toBe(1);
      expect(await seriousViolations(page), 'axe: a kept draft').toEqual([]);
      await desk.shot('intake-draft-kept');

      await saveReadCard(page);
      await expect(eligibilityHeading(page)).toHaveText('Eligibility — Fitzgerald, Jennifer');
      const [saved] = desk.web.host.database.sqlite.prepare('SELECT group_number, front_photo_object_key FROM insurance_cards').all() as { group_number: string; front_photo_object_key: string }[];
      expect(saved).toMatchObject({ group_number: 'TYPED-7', front_photo_object_key: expect.stringMatching(/^[0-9a-f]{64}\.jpg$/) });

      // The next intake starts empty and with no patient, not with the one just saved.
      await page.keyboard.press('Alt+2');
      await expect(intakeHeading(page)).toBeVisible();
      await expect(page.getByRole('radio', { name: 'New patient' })).toBeChecked();
      await expect(page.getByText(/^Patient: /)).toHaveCount(0);
      await expect(page.getByLabel('First name', { exact: true })).toHaveValue('');
      await expect(memberIdField(page)).toHaveValue('');
      await expect(page.getByTestId('intake-kept-draft')).toHaveCount(0);
      await expect(page.getByText(/^Take a photo, choose a file/)).toHaveCount(2);
    });

    test('the count of fields hard to read drops as each is fixed, and Save asks about those still marked', async ({ desk }) => {
      const { page } = desk;
      const card = await cardOnDesk();
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Jennifer', last: 'Fitzgerald', dob: '04/11/1979' });
      await chooseFront(page, { name: card.file, mimeType: card.content_type, buffer: card.bytes });
      await expect(page.getByText(/^Read the card/)).toBeVisible({ timeout: READING_TIMEOUT_MS });

      // This card reads with at least two unsure fields; fixing one takes one off the count.
      const marked = page.locator('.field--review input:not([role="combobox"])');
      const before = await marked.count();
      expect(before).toBeGreaterThanOrEqual(2);
      expect(await hardToReadCount(page)).toBe(before);
      const firstId = await marked.first().getAttribute('id');
      const first = page.locator(`[id="${firstId}"]`);
      await first.fill(`${await first.inputValue()}X`);
      await first.fill((await first.inputValue()).slice(0, -1));
      await expect(marked).toHaveCount(before - 1);
      expect(await hardToReadCount(page)).toBe(before - 1);

      // Save with fields still marked: asked, nothing saved until answered.
      await page.getByRole('button', { name: 'Save card' }).click();
      const marks = page.getByTestId('save-question-marks');
      const left = before - 1;
      await expect(marks).toContainText(`${left === 1 ? '1 field is' : `${left} fields are`} still marked “Check this”.`);
      const checkFirst = marks.getByRole('button', { name: /^Check (it|them) first$/ });
      await expect(checkFirst).toBeFocused();
      expect(await seriousViolations(page), 'axe: the marks question').toEqual([]);
      await desk.shot('intake-marks-question');
      expect(count(desk, 'insurance_cards')).toBe(0);
      expect(count(desk, 'patients')).toBe(0);
      await checkFirst.click();
      await expect(marks).toHaveCount(0);
      await expect(page.locator('.field--review input:focus')).toHaveCount(1);
      await page.getByRole('button', { name: 'Save card' }).click();
      await marks.getByRole('button', { name: /match(es)? the card: save$/ }).click();
      await expect(eligibilityHeading(page)).toHaveText('Eligibility — Fitzgerald, Jennifer');
      expect(count(desk, 'insurance_cards')).toBe(1);
    });

    test('a card naming someone else asks before it is filed under the chosen patient; a draft is dropped only when discarded', async ({ desk }) => {
      const { page } = desk;
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Emily', last: 'Dickinson', dob: '6/3/26' });
      // A two-digit year is written back in full on leaving the field, and the century chosen stays said.
      const dob = page.getByLabel('Date of birth', { exact: true });
      await dob.press('Tab');
      await expect(dob).toHaveValue('06/03/2026');
      await expect(page.getByText(/^Read as June 3, 2026\./)).toHaveText('Read as June 3, 2026. The year was typed with two digits: for 1926, type it in full (06/03/1926).');
      await dob.fill('12/10/1930');
      await memberIdField(page).fill('DIC-1830');
      await page.getByRole('button', { name: 'Save card' }).click();
      await expect(eligibilityHeading(page)).toHaveText('Eligibility — Dickinson, Emily');

      // A new intake: no one chosen. A member id typed, then the desk goes elsewhere and comes back.
      await page.keyboard.press('Alt+2');
      await expect(page.getByRole('radio', { name: 'New patient' })).toBeChecked();
      await memberIdField(page).fill('SMITH-0001');
      await openScreen(page, 'Today');
      await openScreen(page, 'Intake');
      await expect(memberIdField(page)).toHaveValue('SMITH-0001');

      // Opened for a patient while a draft waits: the draft is kept, starting over is offered.
      await page.keyboard.press('Alt+1');
      await page.getByRole('option', { name: /Dickinson, Emily/ }).click();
      await expect(eligibilityHeading(page)).toBeVisible();
      await page.getByRole('button', { name: 'Add a card' }).click();
      const kept = page.getByTestId('intake-kept-draft');
      await expect(kept).toContainText('A card you started is not saved yet');
      await expect(memberIdField(page)).toHaveValue('SMITH-0001');
      await desk.shot('intake-draft-kept-for-another-patient');

      // Discarding asks first; Cancel keeps it.
      await page.getByRole('button', { name: 'Discard this card…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Discard this card?' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(memberIdField(page)).toHaveValue('SMITH-0001');

      // Started over for Emily (the draft's own choice), then a card printed for someone else.
      await kept.getByRole('button', { name: 'Discard it and start a card for Dickinson, Emily' }).click();
      await expect(page.getByText('Patient: Dickinson, Emily', { exact: false })).toBeVisible();
      await expect(memberIdField(page)).toHaveValue('');
      await memberIdField(page).fill('SMITH-0001');
      await page.getByLabel('Member name', { exact: true }).fill('SUBSCRIBER SMITH');
      await page.getByRole('button', { name: 'Save card' }).click();
      const question = page.getByTestId('save-question-member');
      await expect(question).toContainText('The card’s member is SUBSCRIBER SMITH, not Dickinson, Emily.');
      await expect(question.getByRole('button', { name: 'Emily is a dependent on this card: save' })).toBeFocused();
      expect(count(desk, 'insurance_cards')).toBe(1);
      expect(await seriousViolations(page), 'axe: the member question').toEqual([]);
      await desk.shot('intake-member-question');

      // "Choose another patient" goes back to the search; choosing Emily again asks again.
      await question.getByRole('button', { name: 'Choose another patient' }).click();
      await expect(page.getByLabel('Find the patient')).toBeFocused();
      await page.getByLabel('Find the patient').fill('Dickinson');
      await page.getByRole('button', { name: /Dickinson, Emily/ }).click();
      await page.getByRole('button', { name: 'Save card' }).click();
      await question.getByRole('button', { name: 'Emily is a dependent on this card: save' }).click();
      await expect(eligibilityHeading(page)).toHaveText('Eligibility — Dickinson, Emily');
      const saved = desk.web.host.database.sqlite.prepare("SELECT member_name, dependent_names FROM insurance_cards WHERE member_id = 'SMITH-0001'").get() as { member_name: string; dependent_names: string };
      expect(saved.member_name).toBe('SUBSCRIBER SMITH');
      expect(JSON.parse(saved.dependent_names)).toEqual(['Emily Dickinson']);
    });
  });
}
