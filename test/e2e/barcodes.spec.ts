import path from 'node:path';
import { licenceBack, rngFrom } from '../../scripts/generate-barcode-cards';
import { chooseFront, openScreen } from './desk-actions';
import type { Page } from '@playwright/test';
import { DESK_SIZES, expect, READING_TIMEOUT_MS, SCREENSHOT_DIR, test } from './fixtures';

/**
 * A scanner's keys dispatched in the page back to back, in one task: what the page sees when a
 * scanner's keys queued up while it was busy and are handled together, the fastest a scan can
 * arrive. Keys sent from the test runner (CDP), or paced by the page's own timers, arrived up
 * to 300 ms apart mid-scan on the loaded CI machine, which split the scan there and nowhere
 * else; how far apart a scanner's keys may be is the detector's unit test
 * (test/renderer/intake/keyboard-wedge.test.ts), with the gaps measured on a busy desk.
 * Each key does what the browser does with a real one: a keydown, and unless a listener
 * prevented it, its character inserted into the focused field (`insertText`, the same input
 * event a typed key fires). So a scan the desk failed to hold back lands in the field, as it
 * would for a person.
 */
async function scanInPage(page: Page, text: string): Promise<void> {
  await page.evaluate((chars) => {
    // In the page (the test's own types have no DOM): the focused element, the event class, insertText.
    const scope = globalThis as unknown as {
      document: { activeElement: EventTarget | null; body: EventTarget; execCommand(command: string, ui: boolean, value: string): boolean };
      KeyboardEvent: new (type: string, init: { key: string; bubbles: boolean; cancelable: boolean }) => Event;
    };
    for (const char of chars) {
      const key = char === '\n' ? 'Enter' : char;
      const down = new scope.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      const notPrevented = (scope.document.activeElement ?? scope.document.body).dispatchEvent(down);
      if (notPrevented && key !== 'Enter') scope.document.execCommand('insertText', false, char);
    }
  }, [...text]);
}

// Issue 27, items 1, 5 and 6: a licence's barcode offers the new patient's details; a
// keyboard-wedge scanner's typing is recognised and never lands in a field.


for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a photo of a licence back offers its details; accepted, they fill the new patient', async ({ desk }) => {
      const { page } = desk;
      const licence = await licenceBack(rngFrom(7), 0, 'desk');
      await openScreen(page, 'Intake');
      await chooseFront(page, { name: licence.file, mimeType: 'image/jpeg', buffer: licence.bytes });
      const offer = page.getByTestId('licence-offer');
      await expect(offer).toBeVisible({ timeout: READING_TIMEOUT_MS });
      await expect(offer).toContainText('Grace Adaeze Okafor');
      await expect(offer).toContainText('02/29/1984');
      // Offered, never filled silently.
      await expect(page.getByLabel('First name', { exact: true })).toHaveValue('');
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `barcodes--licence-offer--${viewport.width}x${viewport.height}.png`) });
      await offer.getByRole('button', { name: 'Use these details' }).click();
      await expect(page.getByLabel('First name', { exact: true })).toHaveValue('Grace');
      await expect(page.getByLabel('Last name', { exact: true })).toHaveValue('Okafor');
      await expect(page.getByLabel('Date of birth', { exact: true })).toHaveValue('02/29/1984');
    });

    test('a keyboard-wedge scan of a licence is held back from the focused field and offered', async ({ desk }) => {
      const { page } = desk;
      const licence = await licenceBack(rngFrom(7), 1, 'scan');
      await openScreen(page, 'Intake');
      const first = page.getByLabel('First name', { exact: true });
      await first.click();
      // What a scanner in keyboard mode types: CR and LF as Enter, the record separator dropped.
      const typed = licence.truth.payload.replaceAll('\r', '\n').replaceAll('\x1e', '');
      await scanInPage(page, `${typed}\n`);
      const offer = page.getByTestId('licence-offer');
      await expect(offer).toBeVisible();
      await expect(offer).toContainText('Marcus Lindqvist');
      // Held back: nothing the scanner typed reached the field that had the focus.
      await expect(first).toHaveValue('');
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `barcodes--wedge-offer--${viewport.width}x${viewport.height}.png`) });
      await offer.getByRole('button', { name: 'Use these details' }).click();
      await expect(first).toHaveValue('Marcus');
      await expect(page.getByLabel('Last name', { exact: true })).toHaveValue('Lindqvist');
      await expect(page.getByLabel('Date of birth', { exact: true })).toHaveValue('11/03/1991');
      // A person typing into the same field afterwards is not taken for a scanner.
      await first.fill('');
      await first.pressSequentially('Sam', { delay: 120 });
      await expect(first).toHaveValue('Sam');
    });

    test('a keyboard-wedge scan of a licence on an existing patient’s screen says what differs and changes nothing', async ({ desk }) => {
      const { page } = desk;
      const licence = await licenceBack(rngFrom(7), 1, 'scan');
      // Registered with the day of birth typed one off.
      await desk.web.host.bridge['patients.create']({ first_name: 'Marcus', last_name: 'Lindqvist', date_of_birth: '1991-11-04' });
      await openScreen(page, 'Eligibility');
      const search = page.getByLabel('Find the patient', { exact: true });
      await search.fill('marcus lindqvist');
      await search.press('Enter');
      const title = page.getByRole('heading', { level: 1, name: /^Eligibility — Lindqvist, Marcus/ });
      await expect(title).toBeVisible();
      await scanInPage(page, `${licence.truth.payload.replaceAll('\r', '\n').replaceAll('\x1e', '')}\n`);
      const check = page.getByTestId('licence-check');
      await expect(check).toContainText('Details on the licence differ: date of birth 11/03/1991 (the record: 11/04/1991)');
      await expect(check).not.toContainText('first name');
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `barcodes--licence-differs--${viewport.width}x${viewport.height}.png`) });
      // Never changed silently: the record is as it was.
      await expect(page.getByText('Born 11/04/1991', { exact: true })).toBeVisible();
      await check.getByRole('button', { name: 'Dismiss' }).click();
      await expect(check).toBeHidden();
    });
  });
}
