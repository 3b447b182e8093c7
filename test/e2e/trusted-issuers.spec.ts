import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openScreen } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';

const GENERATED = path.resolve('test/fixtures/digital-cards/generated');

// Issue 27, item 2: the trusted SMART Health Card issuers in Settings, imported from a file.
for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    test('trusted issuers imported in Settings (a bad file refused entry by entry), listed with name, iss, keys and when', async ({ desk }) => {
      const { page } = desk;
      await openScreen(page, 'Settings');
      const panel = page.getByTestId('trusted-issuers');
      await expect(panel).toContainText('No trusted issuers yet');
      const file = panel.getByTestId('trusted-issuers-file');
      await file.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ issuers: [{ iss: 'http://plain.example.org', name: 'Plain' }] })) });
      await expect(panel.getByTestId('trusted-issuers-errors')).toContainText("issuers[0].iss must be the issuer's https address");
      await expect(panel).toContainText('No trusted issuers yet');
      await panel.scrollIntoViewIfNeeded();
      await desk.shot('trusted-issuers-refused');
      await file.setInputFiles({ name: 'trusted-issuers.json', mimeType: 'application/json', buffer: readFileSync(path.join(GENERATED, 'trusted-issuers.json')) });
      await expect(panel).toContainText('Imported 1 issuer from trusted-issuers.json.');
      const rows = panel.getByRole('table', { name: 'Trusted issuers' }).getByRole('row');
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(1)).toContainText('Coverdesk test issuer');
      await expect(rows.nth(1)).toContainText('https://issuer.coverdesk.invalid/test');
      await panel.scrollIntoViewIfNeeded();
      await desk.shot('trusted-issuers');
    });
  });
}
