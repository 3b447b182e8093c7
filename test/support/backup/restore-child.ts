import { restoreBackup } from '@src/main/backup/desk-restore';
import { keyFilePaths, readOrCreateKeyFile } from '@src/main/db/database-key';
import { hostPaths } from '@src/main/host/create-host';

/**
 * The restore test's child: restores RESTORE_FROM into RESTORE_DATA_DIR and, at the step
 * RESTORE_STOP_AT ('staged', 'ready', 'moved:<file>'), prints `ready` and stops there for the
 * parent's SIGKILL. No vitest here.
 */
const dataDir = process.env.RESTORE_DATA_DIR!;
const stopAt = process.env.RESTORE_STOP_AT!;
const keyFile = keyFilePaths(dataDir).plain;
const key = readOrCreateKeyFile({ file: keyFile, mayCreate: false });

function stopHere(): void {
  process.stdout.write('ready\n');
  // The swap is synchronous: block this thread until the parent's SIGKILL.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

void restoreBackup(
  { version: '0.1.0', now: () => new Date(), onStep: (step) => step === stopAt && stopHere() },
  { from: process.env.RESTORE_FROM!, key, target: { ...hostPaths(dataDir), dataDir, keyFile }, targetPracticeId: null },
).then(() => process.stdout.write('finished without stopping\n'));
