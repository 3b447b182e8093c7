import Database from 'better-sqlite3-multiple-ciphers';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { applyDatabaseKey } from '@src/main/db/database-cipher';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { hostPaths } from '@src/main/host/create-host';
import { openScreen } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';


test.describe('Audit screen: Verify', () => {
  for (const size of DESK_SIZES) {
    test(`${size.width}×${size.height}: says the log is intact, then names the entry changed behind its back`, async ({ desk, page }) => {
      await page.setViewportSize(size);
      // Three registrations through the host, as the desk makes them: entries #1 to #3.
      for (const first of ['Ada', 'Bea', 'Cyd']) {
        const created = await dispatchBridgeCall(desk.web.host.bridge, 'patients.create', { first_name: first, last_name: 'Verify', date_of_birth: '1970-01-01' });
        expect(created.ok).toBe(true);
      }
      await openScreen(page, 'Audit log');
      const verify = page.getByRole('button', { name: 'Verify', exact: true });
      await verify.click();
      await expect(page.getByText('Intact: all 3 entries match their seals, in order, none missing.')).toBeVisible();
      await desk.shot('audit-verify-intact');

      // Someone with the key and a SQLite tool gets past the triggers and rewrites entry #2.
      const raw = new Database(hostPaths(desk.dataDir).database);
      try {
        applyDatabaseKey(raw, readOrCreateKeyFile({ file: keyFilePaths(desk.dataDir).plain, mayCreate: false }));
        raw.exec("DROP TRIGGER audit_log_no_update; UPDATE audit_log SET actor = 'nobody' WHERE seq = 2;");
      } finally {
        raw.close();
      }
      await verify.click();
      await expect(page.getByText('Not intact: entry #2 (position 2 in the log) was changed after it was written: it no longer matches its seal. The entry before it is intact.')).toBeVisible();
      await desk.shot('audit-verify-changed');
    });
  }
});
