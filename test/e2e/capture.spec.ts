import fs from 'node:fs';
import path from 'node:path';
import { makePng } from '@test/support/images';
import { choosePayer, memberIdField, openScreen, saveCard } from './desk-actions';
import { expect, test } from './fixtures';

// The browser's own, used inside page.evaluate: this file is compiled without the DOM library.
declare const DataTransfer: new () => { items: { add(file: unknown): void } };
declare const File: new (parts: unknown[], name: string, options: { type: string }) => unknown;

test('card photos from the camera (getUserMedia) and by drag-and-drop', async ({ desk }) => {
  const { page } = desk;
  await openScreen(page, 'Intake');
  const front = page.getByTestId('photo-front');
  await front.getByRole('button', { name: 'Use camera' }).click();
  // Chromium's synthetic camera stands in for the desk's webcam.
  await expect(front.getByRole('button', { name: 'Take photo' })).toBeEnabled();
  await expect(front.getByRole('button', { name: 'Take photo' })).toBeFocused();
  await front.getByRole('button', { name: 'Take photo' }).click();
  await expect(front.getByRole('img', { name: 'Front of the card, as captured' })).toBeVisible();

  const back = page.getByTestId('photo-back');
  const png = Buffer.from(makePng(48, 30, [20, 90, 200])).toString('base64');
  const dataTransfer = await page.evaluateHandle((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'back.png', { type: 'image/png' }));
    return transfer;
  }, png);
  await back.dispatchEvent('dragover', { dataTransfer });
  await back.dispatchEvent('drop', { dataTransfer });
  await expect(back.getByRole('img', { name: 'Back of the card, as captured' })).toBeVisible();

  // A file that is not a photo is refused in plain words, before any upload.
  const text = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    return transfer;
  });
  await back.dispatchEvent('drop', { dataTransfer: text });
  await expect(back.getByRole('alert')).toHaveText('That file is not a photo Coverdesk can read: use a JPEG or PNG.');
  await desk.shot('camera-and-drop');
});

test('a card scanned into the hot folder appears in Intake, fills the patient, and is used once', async ({ desk }) => {
  const { page, dataDir } = desk;
  await openScreen(page, 'Intake');
  const inbox = page.getByRole('region', { name: 'Scanned cards' });
  await expect(inbox).toContainText('No scanned cards waiting.');

  // What scanner software does: a front, a back and a sidecar naming the patient.
  const folder = path.join(dataDir, 'inbox');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'scan-0042.front.png'), makePng(64, 40, [200, 200, 40]));
  fs.writeFileSync(path.join(folder, 'scan-0042.back.png'), makePng(64, 40, [40, 200, 200]));
  fs.writeFileSync(path.join(folder, 'scan-0042.json'), JSON.stringify({ first_name: 'Sofia', last_name: 'Hernandez', date_of_birth: '1999-12-25' }));

  const item = inbox.getByRole('listitem').filter({ hasText: 'Hernandez, Sofia' });
  await expect(item).toBeVisible({ timeout: 20_000 });
  await expect(item).toContainText('front and back');
  await item.getByRole('button', { name: 'Use this scan' }).click();
  await expect(page.getByLabel('First name', { exact: true })).toHaveValue('Sofia');
  await expect(page.getByLabel('Date of birth', { exact: true })).toHaveValue('12/25/1999');
  await expect(page.getByTestId('photo-front').getByRole('img', { name: 'Front of the card, as scanned' })).toBeVisible();
  await desk.shot('inbox-scan-used');

  await choosePayer(page, 'Molina Healthcare of California');
  await memberIdField(page).fill('90817263545');
  await saveCard(page);
  await expect(page.getByRole('img', { name: 'Front of the card' })).toBeVisible();

  await openScreen(page, 'Intake');
  await expect(page.getByRole('region', { name: 'Scanned cards' })).toContainText('No scanned cards waiting.');
});
