import { httpRequest } from '@test/support/http-request';
import { openScreen } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';


// Issue 28, item 6: a token per program, shown once, named in the audit log, revocable.
test.describe('Settings: Integrations', () => {
  for (const size of DESK_SIZES) {
    test(`${size.width}×${size.height}: a program gets its own token, its work is audited under its name, and a revoked token is refused`, async ({ desk, page }) => {
      await page.setViewportSize(size);
      await openScreen(page, 'Settings');
      const local = page.getByRole('region', { name: 'Local API for scanners' });
      const socketPath = (await local.locator('p', { hasText: 'Address:' }).locator('.mono').textContent())?.trim() ?? '';
      const panel = page.getByRole('region', { name: 'Programs using the local API' });
      await panel.getByRole('button', { name: 'Make a token' }).click();
      await expect(panel.getByText('name must not be empty.')).toBeVisible();
      await panel.getByLabel('Program name').fill('Front scanner');
      await panel.getByRole('button', { name: 'Make a token' }).click();
      const token = (await panel.getByTestId('integration-token').textContent())?.trim() ?? '';
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      await expect(panel.getByRole('cell', { name: 'Front scanner', exact: true })).toBeVisible();
      await panel.scrollIntoViewIfNeeded();
      await desk.shot('integration-made');

      const post = (body: unknown) =>
        httpRequest({ socketPath }, { method: 'POST', path: '/v1/patients', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post({ first_name: 'Ines', last_name: 'Okafor', date_of_birth: '1979-03-14' })).status).toBe(201);

      await openScreen(page, 'Audit log');
      await expect(page.getByRole('cell', { name: /\(local API: Front scanner\)$/ })).toBeVisible();
      await desk.shot('audit-names-integration');

      await openScreen(page, 'Settings');
      await panel.getByRole('button', { name: "Revoke Front scanner's token" }).click();
      await page.getByRole('button', { name: 'Revoke the token' }).click();
      await expect(panel.getByText("Front scanner's token no longer works.")).toBeVisible();
      await expect(panel.getByText(/^Revoked/)).toBeVisible();
      expect((await post({ first_name: 'Ines', last_name: 'Okafor', date_of_birth: '1979-03-14' })).status).toBe(401);
      await desk.shot('integration-revoked');
    });
  }
});
