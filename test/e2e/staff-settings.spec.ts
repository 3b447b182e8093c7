import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHost } from '@src/main/host/create-host';
import type { Locator } from '@playwright/test';
import { DESK_SIZES, expect, test } from './fixtures';
import { addStaffInSettings, openStaffSettings } from './staff-settings-actions';

// Issue 28, items 1 and 7: Settings → Staff, the manager's list. The desk's first manager is
// made through the host's bridge (the first-start screen is another spec's), which signs them
// in on this host: the page then works as them.
const PASSPHRASE = 'blue heron at noon';

/** Brings `locator`'s top to the top of the scrolling desk, for a screenshot of what follows it. */
const toTop = (locator: Locator) => locator.evaluate((element) => element.scrollIntoView({ block: 'start' }));

/** Another practice's staff file: a desk of its own, exported and closed. */
async function otherPracticeFile(): Promise<Buffer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coverdesk-other-practice-'));
  const other = createHost({ dataDir, localApi: false, hotFolder: false });
  try {
    await other.bridge['staff.setup']({ name: 'Olga Other', pin: '864209' });
    const file = await other.bridge['staff.exportFile']({ passphrase: PASSPHRASE });
    return Buffer.from(file.data_base64, 'base64');
  } finally {
    await other.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    test('the manager adds, renames, changes roles, disables and enables people, sets a forgotten PIN, and moves the list by file', async ({ desk }) => {
      test.setTimeout(120_000);
      const { page } = desk;
      const host = desk.web.host;
      await host.bridge['staff.setup']({ name: 'Maria Manager', pin: '135790' });
      await page.reload();
      const panel = await openStaffSettings(page);
      const row = (name: string) => panel.getByTestId('staff-row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
      await expect(row('Maria Manager')).toContainText('(you)');
      await expect(row('Maria Manager')).toContainText('Manager');
      await expect(panel.getByTestId('staff-never-deleted')).toContainText('Nobody is deleted: the audit log keeps naming everyone');

      // Bad input names the field, and nothing is added.
      const add = panel.getByTestId('staff-add');
      await add.getByLabel('Name', { exact: true }).fill('Ana Front');
      await add.getByLabel('PIN or passphrase', { exact: true }).fill('1234');
      await add.getByRole('button', { name: 'Add person' }).click();
      await expect(add.getByText('PIN or passphrase must be a PIN of 6 to 12 digits or a passphrase of at least 10 characters.')).toBeVisible();
      await expect(add.getByLabel('PIN or passphrase', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await add.getByLabel('PIN or passphrase', { exact: true }).fill('246801');
      await add.getByLabel('PIN or passphrase again', { exact: true }).fill('246810');
      await add.getByLabel('PIN or passphrase again', { exact: true }).press('Enter');
      await expect(add.getByText('PIN or passphrase again must be the same as the first: type it again.')).toBeVisible();
      // A name already at the desk: the host's refusal, at the name.
      await add.getByLabel('Name', { exact: true }).fill('maria manager');
      await add.getByLabel('PIN or passphrase again', { exact: true }).fill('246801');
      await add.getByRole('button', { name: 'Add person' }).click();
      await expect(add.getByText(/^Name must differ from every other staff member’s \(add an initial\)/)).toBeVisible({ timeout: 15_000 });
      await toTop(add);
      await desk.shot('add-refused');
      expect(await host.bridge['staff.list']({})).toHaveLength(1);

      await addStaffInSettings(page, { name: 'Ana Front', role: 'front_desk', pin: '246801' });
      await addStaffInSettings(page, { name: 'Ben Second', role: 'manager', pin: 'a long passphrase' });
      await expect(panel.getByTestId('staff-row')).toHaveCount(3);
      await expect(row('Ben Second')).toContainText('Manager');
      await toTop(panel);
      await desk.shot('list');

      // Rename, by keyboard: Edit takes the focus to the name; Escape cancels, Enter saves.
      await row('Ana Front').getByRole('button', { name: 'Edit Ana Front' }).click();
      const edit = panel.getByTestId('staff-edit');
      await expect(edit.getByLabel('Name', { exact: true })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(edit).toHaveCount(0);
      await row('Ana Front').getByRole('button', { name: 'Edit Ana Front' }).click();
      await edit.getByLabel('Name', { exact: true }).fill('Ana Front-Desk');
      await page.keyboard.press('Enter');
      await expect(row('Ana Front-Desk')).toHaveCount(1, { timeout: 15_000 });
      await expect(panel).toContainText('Ana Front: renamed Ana Front-Desk.');

      // Ben is made front desk: Maria is then the only manager, whom the host keeps.
      await row('Ben Second').getByRole('button', { name: 'Edit Ben Second' }).click();
      await edit.getByLabel('Role', { exact: true }).selectOption('front_desk');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(row('Ben Second')).toContainText('Front desk', { timeout: 15_000 });
      await row('Maria Manager').getByRole('button', { name: 'Edit Maria Manager' }).click();
      await edit.getByLabel('Role', { exact: true }).selectOption('front_desk');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(edit.getByRole('alert')).toContainText('Maria Manager is the desk\'s only manager: make someone else a manager first.', { timeout: 15_000 });
      await expect(edit.getByText('Role: the desk must keep at least one enabled manager.')).toBeVisible();
      await toTop(panel);
      await desk.shot('last-manager-refused');
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await row('Maria Manager').getByRole('button', { name: 'Disable Maria Manager' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
      await expect(panel.getByRole('alert')).toContainText('only manager', { timeout: 15_000 });
      expect((await host.bridge['staff.list']({})).find((p) => p.name === 'Maria Manager')).toMatchObject({ role: 'manager', disabled_at: null });

      // Disabled, never deleted; enabled again.
      await row('Ben Second').getByRole('button', { name: 'Disable Ben Second' }).click();
      await expect(page.getByRole('dialog')).toContainText('Nobody is deleted');
      await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
      await expect(row('Ben Second')).toContainText('Disabled', { timeout: 15_000 });
      await expect(row('Ben Second').getByRole('button', { name: 'Enable Ben Second' })).toBeVisible();
      expect((await host.bridge['staff.session']({})).people.map((p) => p.name)).not.toContain('Ben Second');
      await row('Ben Second').getByRole('button', { name: 'Enable Ben Second' }).click();
      await expect(row('Ben Second')).toContainText('Can sign in', { timeout: 15_000 });

      // Ana forgot her PIN: a new one, typed twice.
      await row('Ana Front-Desk').getByRole('button', { name: 'Edit Ana Front-Desk' }).click();
      await edit.getByRole('button', { name: 'Set a new PIN (forgotten)…' }).click();
      await expect(edit.getByLabel('New PIN or passphrase', { exact: true })).toBeFocused();
      await page.keyboard.type('975310');
      await edit.getByLabel('PIN or passphrase again', { exact: true }).fill('975310');
      await edit.getByLabel('PIN or passphrase again', { exact: true }).press('Enter');
      await expect(panel).toContainText('Ana Front-Desk: has a new PIN', { timeout: 15_000 });

      // The staff file: exported under a passphrase typed twice.
      const file = panel.getByTestId('staff-file');
      const exportForm = file.getByRole('form', { name: 'Export the staff file' });
      await exportForm.getByLabel('File passphrase', { exact: true }).fill('short');
      await exportForm.getByRole('button', { name: 'Export the staff file' }).click();
      await expect(exportForm.getByText('File passphrase must be at least 10 characters.')).toBeVisible();
      await exportForm.getByLabel('File passphrase', { exact: true }).fill(PASSPHRASE);
      await exportForm.getByLabel('File passphrase again', { exact: true }).fill(PASSPHRASE);
      const download = page.waitForEvent('download');
      await exportForm.getByRole('button', { name: 'Export the staff file' }).click();
      const saved = await download;
      expect(saved.suggestedFilename()).toBe('coverdesk-staff.cdstaff');
      const exported = fs.readFileSync((await saved.path())!);
      expect(exported.toString('latin1')).not.toContain('Ana Front');
      await expect(file).toContainText('Saved coverdesk-staff.cdstaff');

      // Imported back: this practice's own list, already matching.
      const importForm = file.getByRole('form', { name: 'Import a staff file' });
      const importAs = async (name: string, bytes: Buffer, passphrase: string) => {
        await file.getByTestId('staff-import-file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: bytes });
        await importForm.getByLabel('File passphrase', { exact: true }).fill(passphrase);
        await importForm.getByRole('button', { name: 'Import the staff file' }).click();
      };
      await importForm.getByRole('button', { name: 'Import the staff file' }).click();
      await expect(importForm.getByText('Staff file: choose the file exported on another desk.')).toBeVisible();
      await importAs('coverdesk-staff.cdstaff', exported, PASSPHRASE);
      await expect(importForm).toContainText('The staff list already matched the file: nothing changed.', { timeout: 15_000 });
      // Changed on the way, another practice's: the host's words, and nothing changed.
      const before = await host.bridge['staff.list']({});
      const tampered = Buffer.from(exported);
      tampered[tampered.length - 20] ^= 0x01;
      await importAs('tampered.cdstaff', tampered, PASSPHRASE);
      await expect(importForm.getByRole('alert')).toContainText('This staff file cannot be opened: the passphrase is wrong, or the file was changed or damaged. Nothing was changed.', { timeout: 15_000 });
      await importAs('other.cdstaff', await otherPracticeFile(), PASSPHRASE);
      await expect(importForm.getByRole('alert')).toContainText('This staff file is from another practice', { timeout: 15_000 });
      await expect(importForm.getByRole('alert')).toContainText('Nothing was changed.');
      expect(await host.bridge['staff.list']({})).toEqual(before);
      await toTop(file);
      await desk.shot('staff-file');

      // What the list said is what the desk now does: Ana signs in with her new PIN.
      const ana = before.find((p) => p.name === 'Ana Front-Desk')!;
      expect((await host.bridge['staff.signIn']({ id: ana.id, pin: '975310' })).signed_in).toMatchObject({ name: 'Ana Front-Desk', role: 'front_desk' });
      expect(desk.consoleProblems()).toEqual([]);
    });
  });
}
