import { recoveryStatus } from '@src/main/security/recovery-code';
import { openScreen } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';

// Issue 28, item 5: Settings → Recovery sheet: a sheet made, shown once with its code, and
// emergency access with that code shown as used, with a new sheet offered.
for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    test('makes the recovery sheet, shows its code once, and after emergency access shows it used and offers a new one', async ({ desk }) => {
      const { page } = desk;
      await openScreen(page, 'Settings');
      const panel = page.getByTestId('recovery');
      await expect(panel).toContainText('This desk has no recovery sheet yet');
      await panel.getByRole('button', { name: 'Make the recovery sheet' }).click();
      const sheet = panel.getByTestId('recovery-sheet');
      await expect(sheet).toBeVisible({ timeout: 15_000 });
      const code = (await sheet.getByTestId('recovery-code').textContent())!.trim();
      expect(code).toMatch(/^([0-9A-Z]{4}-){5}[0-9A-Z]{4}$/);
      await expect(sheet.getByRole('button', { name: 'Print or save as PDF' })).toBeVisible();
      await sheet.scrollIntoViewIfNeeded();
      await desk.shot('recovery-sheet');
      await sheet.getByRole('button', { name: 'Done: it is printed' }).click();
      await expect(panel.getByTestId('recovery-sheet')).toHaveCount(0);
      await expect(panel).toContainText('recovery sheet was made');
      await expect(panel).not.toContainText(code);

      // The manager is away: emergency access with the sheet (the sign-in will call this).
      await desk.web.host.bridge['recovery.emergencyAccess']({ code });
      expect(recoveryStatus(desk.web.host.dataDir).used_at).not.toBeNull();
      await page.reload();
      await openScreen(page, 'Settings');
      await expect(page.getByTestId('recovery')).toContainText('works no more', { timeout: 15_000 });
      await expect(page.getByTestId('recovery').getByRole('button', { name: 'Make a new recovery sheet' })).toBeVisible();
      await page.getByTestId('recovery').scrollIntoViewIfNeeded();
      await desk.shot('recovery-used');
    });
  });
}
