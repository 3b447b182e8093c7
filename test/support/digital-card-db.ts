import path from 'node:path';
import { openDatabase, type OpenedDatabase } from '@src/main/db/open-database';
import { makeTempDir } from './temp-dir';

/** A real SQLite file for the digital-card tests; `settingsRows` is what they assert "nothing written" on. */
export function openDigitalCardDb(): { opened: OpenedDatabase; settingsRows(): unknown[]; close(): void } {
  const temp = makeTempDir();
  const opened = openDatabase({ file: path.join(temp.dir, 'desk.sqlite') });
  return {
    opened,
    settingsRows: () => opened.sqlite.prepare("SELECT key, value FROM settings WHERE key LIKE 'digital_cards.%' ORDER BY key").all(),
    close() {
      opened.close();
      temp.cleanup();
    },
  };
}
