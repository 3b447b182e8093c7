import { describe, expect, it } from 'vitest';
import { listBackups } from '@src/main/backup/desk-backup';
import { createHost } from '@src/main/host/create-host';
import { fillDesk } from '@test/support/backup/large-desk';
import { closedAfterEach } from '@test/support/backup/closing';

const { tempDir, keep } = closedAfterEach();

describe('a backup while the desk works', () => {
  it('answers bridge calls while a backup of thousands of records runs, and the backup holds them all', async () => {
    const host = createHost({ dataDir: tempDir('coverdesk-desk-'), localApi: false, hotFolder: false });
    keep(host);
    await fillDesk(host, { records: 5_000, photos: 40 });
    const to = tempDir('coverdesk-usb-');
    await host.bridge['backups.update']({ folder: to, keep: 2 });

    let finishedAt: number | null = null;
    const started = performance.now();
    const backup = host.bridge['backups.run']({}).then((status) => {
      finishedAt = performance.now();
      return status;
    });
    // The desk asks for a page of patients every few milliseconds, as the Today screen's reads would.
    const answers: { at: number; latency: number }[] = [];
    while (finishedAt === null) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const asked = performance.now();
      const page = await host.bridge['patients.list']({ limit: 20 });
      expect(page.data.length).toBeGreaterThan(0);
      answers.push({ at: performance.now(), latency: performance.now() - asked });
    }
    const status = await backup;
    const during = answers.filter((answer) => answer.at < finishedAt!);
    const latencies = during.map((answer) => answer.latency).sort((a, b) => a - b);
    console.log(
      `backup ${Math.round(finishedAt! - started)} ms; ${during.length} bridge calls answered during it, p95 ${latencies[Math.floor(latencies.length * 0.95)]?.toFixed(1) ?? '-'} ms`,
    );

    expect(status.last_failure).toBeNull();
    expect(status.last_verified?.records).toBeGreaterThanOrEqual(10_000);
    expect(listBackups(to)).toHaveLength(1);
    // Generous bounds on a shared machine: the desk answered while the backup ran, and no call waited for it.
    expect(during.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...latencies)).toBeLessThan(finishedAt! - started);
  });
});
