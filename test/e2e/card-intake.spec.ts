import type { Page } from '@playwright/test';
import { makePng } from '@test/support/images';
import { seriousViolations } from './axe';
import { cardOnDesk } from './card-images';
import { chooseFront, holdBridgeCall, fillNewPatient, memberIdField, openScreen, runCheck, saveReadCard } from './desk-actions';
import { DESK_SIZES, expect, READING_TIMEOUT_MS, test, type Desk } from './fixtures';

// Issue 14, item 6: an intake that never loses what was read off the card.

interface StoredCard {
  id: string;
  member_id: string | null;
  group_number: string | null;
  rx_bin: string | null;
  front_photo_object_key: string | null;
  created_at: string;
}

function storedCards(desk: Desk): StoredCard[] {
  return desk.web.host.database.sqlite.prepare('SELECT id, member_id, group_number, rx_bin, front_photo_object_key, created_at FROM insurance_cards ORDER BY created_at, id').all() as StoredCard[];
}

function count(desk: Desk, table: 'patients' | 'insurance_cards'): number {
  return (desk.web.host.database.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** Neither the window nor the desk's scrolling main area scrolls sideways. */
async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { scrollingElement: { scrollWidth: number; clientWidth: number }; querySelector(s: string): { scrollWidth: number; clientWidth: number } | null } }).document;
    const main = doc.querySelector('.main');
    return { page: doc.scrollingElement.scrollWidth - doc.scrollingElement.clientWidth, main: main ? main.scrollWidth - main.clientWidth : 0 };
  });
  expect(overflow).toEqual({ page: 0, main: 0 });
}

const OFFICE_VISIT = { search: 'office visit', label: 'Professional physician visit office' } as const;


for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a photo of a card on a desk fills the form beside the photo, which can be enlarged', async ({ desk }) => {
      const { page } = desk;
      const card = await cardOnDesk();
      await openScreen(page, 'Intake');
      await chooseFront(page, { name: card.file, mimeType: card.content_type, buffer: card.bytes });

      await expect(page.getByText(/^Read the card/)).toBeVisible({ timeout: READING_TIMEOUT_MS });
      await expect(memberIdField(page)).toHaveValue(card.truth.member_id);
      await expect(page.getByLabel('Group number', { exact: true })).toHaveValue(card.truth.group_number);
      await expect(page.getByLabel('Rx BIN', { exact: true })).toHaveValue(card.truth.rx_bin);

      // Beside: the photo's column and the fields' column side by side, their tops level.
      const photo = await page.getByRole('img', { name: 'Front of the card, as captured' }).boundingBox();
      const field = await memberIdField(page).boundingBox();
      if (!photo || !field) throw new Error('photo or member id field not laid out');
      expect(photo.x + photo.width).toBeLessThanOrEqual(field.x);
      expect(Math.abs(photo.y - field.y)).toBeLessThan(200);
      expect(field.x + field.width).toBeLessThanOrEqual(viewport.width);
      await expectNoHorizontalOverflow(page);
      expect(await seriousViolations(page), 'axe: intake with a card read and the name offered').toEqual([]);
      await desk.shot('desk-photo-read');

      // The member on the card is offered as the patient, one click, never filled silently.
      // The card prints FIRST M LAST; the offer is first and last name, in title case.
      const [first, ...rest] = card.truth.member_name.split(' ');
      const title = (word: string) => word[0] + word.slice(1).toLowerCase();
      const offered = { first: title(first), last: title(rest[rest.length - 1]) };
      await expect(page.getByLabel('First name', { exact: true })).toHaveValue('');
      await expect(page.getByText(/^The card’s member is .+\. Is that the patient\?$/)).toBeVisible();
      await page.getByRole('button', { name: `Use “${offered.first} ${offered.last}” as the patient’s name` }).click();
      await expect(page.getByLabel('First name', { exact: true })).toHaveValue(offered.first);
      await expect(page.getByLabel('Last name', { exact: true })).toHaveValue(offered.last);
      await expect(page.getByLabel('Date of birth', { exact: true })).toBeFocused();
      await expect(page.getByRole('button', { name: /as the patient’s name$/ })).toBeHidden();

      // A wrong field is fixed by typing over it: its "check this" mark goes with the first key.
      const marked = page.locator('.field--review input:not([role="combobox"])');
      for (let left = await marked.count(); left > 0; left--) {
        // Pinned by id: the marked list changes under the first key.
        const id = await marked.first().getAttribute('id');
        const input = page.locator(`[id="${id}"]`);
        const value = await input.inputValue();
        await input.fill(`${value}X`);
        await input.fill(value);
        await expect(page.locator(`[id="${id}-review"]`)).toHaveCount(0);
      }

      // The photo, enlarged: a dialog, keyboard first, Escape closes it and focus comes back.
      const enlarge = page.getByRole('button', { name: 'Enlarge the front photo' });
      await enlarge.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Front of the card' });
      await expect(dialog).toBeVisible();
      const big = await dialog.getByRole('img', { name: 'Front of the card, enlarged' }).boundingBox();
      expect(big?.width ?? 0).toBeGreaterThan(2 * photo.width);
      expect(await seriousViolations(page), 'axe: photo enlarged').toEqual([]);
      await page.getByRole('button', { name: 'Full size' }).click();
      await expect(dialog.getByRole('region', { name: 'Front of the card, full size' })).toBeVisible();
      await desk.shot('desk-photo-enlarged');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(enlarge).toBeFocused();
    });

    test('Save pressed while the card is read waits for the reading and keeps what was read', async ({ desk }) => {
      const { page } = desk;
      const card = await cardOnDesk();
      // The reader's real answer, held back until Save has been pressed: the early save is
      // made certain rather than left to how fast this machine reads.
      const reading = await holdBridgeCall(page, 'extractions.preview');

      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Grace', last: 'Hopper', dob: '12/09/1956' });
      // Typed before the reading answers: what the person typed wins over what is read.
      await page.getByLabel('Plan name', { exact: true }).fill('Typed plan');
      await chooseFront(page, { name: card.file, mimeType: card.content_type, buffer: card.bytes });
      await page.getByRole('button', { name: 'Save card' }).click();

      await expect(page.getByRole('button', { name: 'Waiting for the reading…' })).toBeVisible();
      await expect(page.getByText('Saving as soon as the card is read', { exact: false })).toBeVisible();
      await reading.asked;
      await desk.shot('save-waits-for-reading');
      expect(count(desk, 'insurance_cards')).toBe(0);
      expect(count(desk, 'patients')).toBe(0);
      reading.release();

      // It saves by itself when everything read cleanly; when the reader was unsure of a
      // field, it stops on it (the person never saw what was read) and one more press saves.
      const eligibility = page.getByRole('heading', { level: 1, name: /^Eligibility — / });
      const held = page.getByText(/^Not saved yet\. The card was read, but/);
      await expect(eligibility.or(held)).toBeVisible({ timeout: 30_000 });
      if (await held.isVisible()) {
        expect(count(desk, 'insurance_cards')).toBe(0);
        await expect(page.locator('.field--review').first()).toBeVisible();
        await desk.shot('save-held-for-checking');
        // Pressed again with fields still marked: Save asks whether they were compared with the card.
        await page.getByRole('button', { name: 'Save card' }).click();
        const marks = page.getByTestId('save-question-marks');
        await expect(marks).toContainText('still marked “Check this”');
        await expect(marks.getByRole('button', { name: /^Check (it|them) first$/ })).toBeFocused();
        expect(count(desk, 'insurance_cards')).toBe(0);
        await marks.getByRole('button', { name: /match(es)? the card: save$/ }).click();
        await expect(eligibility).toBeVisible();
      }
      const [stored] = storedCards(desk);
      expect(storedCards(desk)).toHaveLength(1);
      expect(stored.member_id).toBe(card.truth.member_id);
      expect(stored.group_number).toBe(card.truth.group_number);
      expect(stored.rx_bin).toBe(card.truth.rx_bin);
      expect(stored.front_photo_object_key).toMatch(/^[0-9a-f]{64}\.jpg$/);
      const plan = desk.web.host.database.sqlite.prepare('SELECT plan_name FROM insurance_cards').get() as { plan_name: string };
      expect(plan.plan_name).toBe('Typed plan');
    });

    test('a photo that cannot be read says why in a sentence, and Save does not store a blank card', async ({ desk }) => {
      const { page } = desk;
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Alan', last: 'Turing', dob: '06/23/1952' });
      // A flat blue picture: read, but nothing on it is a card.
      await chooseFront(page, { name: 'not-a-card.png', mimeType: 'image/png', buffer: Buffer.from(makePng(640, 400, [20, 90, 200])) });
      await page.getByRole('button', { name: 'Save card' }).click();
      const why = page.getByText(/^Not saved yet\. (This photo does not look like an insurance card|No card fields could be read|Retake:)/);
      await expect(why).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('The card could not be read: type the fields in from the card.')).toHaveCount(0);
      expect(count(desk, 'insurance_cards')).toBe(0);
      expect(count(desk, 'patients')).toBe(0);
      await desk.shot('unreadable-photo');
      // Typed in full, it saves.
      await memberIdField(page).fill('TUR-0623');
      await page.getByRole('button', { name: 'Save card' }).click();
      await expect(page.getByRole('heading', { level: 1, name: /^Eligibility — Turing, Alan/ })).toBeVisible();
      expect(count(desk, 'insurance_cards')).toBe(1);
    });

    test('a saved card is corrected as a new version; the old one is kept and the new one is checked', async ({ desk }) => {
      const { page } = desk;
      const card = await cardOnDesk();
      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: 'Katherine', last: 'Johnson', dob: '08/26/1918' });
      await chooseFront(page, { name: card.file, mimeType: card.content_type, buffer: card.bytes });
      await expect(page.getByText(/^Read the card/)).toBeVisible({ timeout: READING_TIMEOUT_MS });
      // As a desk that misread the card and typed a wrong group number over the right one.
      await page.getByLabel('Group number', { exact: true }).fill('WRONG-1');
      await saveReadCard(page);
      const [original] = storedCards(desk);
      // Checked once as it was: the latest check names the card that is about to be replaced.
      await runCheck(page, { serviceType: OFFICE_VISIT });
      await expect(page.getByTestId('benefits-summary').or(page.getByTestId('check-failure'))).toBeVisible({ timeout: 20_000 });

      await page.getByRole('button', { name: 'Correct this card' }).click();
      const form = page.getByRole('form', { name: 'Correct this card' });
      await expect(form.getByRole('heading', { name: 'Correct this card' })).toBeFocused();
      await expect(form.getByRole('img', { name: 'Front of the card' })).toBeVisible();
      await expect(form.getByLabel('Member id', { exact: true })).toHaveValue(card.truth.member_id);
      await expectNoHorizontalOverflow(page);
      expect(await seriousViolations(page), 'axe: correcting a card').toEqual([]);
      await desk.shot('correct-card-form');

      // Nothing changed is not a new version.
      await form.getByRole('button', { name: 'Save the corrected card' }).click();
      await expect(form.getByText(/^Nothing was changed/)).toBeVisible();
      expect(count(desk, 'insurance_cards')).toBe(1);

      await form.getByLabel('Group number', { exact: true }).fill(card.truth.group_number);
      await form.getByRole('button', { name: 'Save the corrected card' }).click();
      await expect(page.getByText(/^Saved the corrected card/)).toBeVisible();

      const cards = storedCards(desk);
      expect(cards).toHaveLength(2);
      const corrected = cards.find((c) => c.id !== original.id);
      expect(corrected).toMatchObject({ member_id: original.member_id, group_number: card.truth.group_number, front_photo_object_key: original.front_photo_object_key });
      expect(cards.find((c) => c.id === original.id)?.group_number).toBe('WRONG-1');

      // Both listed: the corrected one chosen, the old one marked as earlier.
      const select = page.getByLabel('Card', { exact: true });
      await expect(select).toHaveValue(corrected!.id);
      await expect(select.locator('option')).toHaveCount(2);
      await expect(select.locator(`option[value="${original.id}"]`)).toHaveText(/ · earlier version$/);
      await desk.shot('card-corrected');

      // Opened again later from Today, the screen picks the corrected card, though the
      // latest check was on the card as it was.
      await openScreen(page, 'Today');
      await page.getByLabel('Search by name, date of birth or member id').fill('Johnson');
      await page.getByRole('option', { name: /Johnson, Katherine/ }).click();
      await expect(page.getByLabel('Card', { exact: true })).toHaveValue(corrected!.id);

      await runCheck(page, { serviceType: OFFICE_VISIT });
      const checkedCards = () => (desk.web.host.database.sqlite.prepare('SELECT insurance_card_id AS id FROM electronic_eligibility_checks ORDER BY created_at, id').all() as { id: string }[]).map((c) => c.id);
      await expect.poll(checkedCards).toEqual([original.id, corrected!.id]);
    });
  });
}
