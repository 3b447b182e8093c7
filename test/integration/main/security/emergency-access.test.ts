import { describe, expect, it } from 'vitest';
import { createHost } from '@src/main/host/create-host';
import { newRecoveryCode, RecoveryCodeError, recoveryStatus } from '@src/main/security/recovery-code';
import { closedAfterEach } from '@test/support/backup/closing';

/** Emergency access with the recovery sheet (issue 28, item 5), through the host's bridge. */
const { tempDir, keep } = closedAfterEach();

async function refused(run: () => Promise<unknown>): Promise<{ code: string; path?: string }> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(RecoveryCodeError);
    return { code: (error as RecoveryCodeError).code, path: (error as RecoveryCodeError).errors?.[0]?.path };
  }
  throw new Error('not refused');
}

describe('recovery.* on a running desk', () => {
  it('shows the first sheet once; emergency access with it works while locked, is audited and uses the code up; wrong, mistyped and used codes change nothing', async () => {
    const host = keep(createHost({ dataDir: tempDir('coverdesk-emergency-'), localApi: false, hotFolder: false, deskName: 'Front desk 2', recoveryScrypt: { N: 2 ** 10, r: 8, p: 1 } }));
    const { bridge } = host;
    expect(await bridge['recovery.status']({})).toEqual({ made_at: null, used_at: null });
    const sheet = await bridge['recovery.setup']({});
    expect(sheet).toMatchObject({ desk: 'Front desk 2', practice_name: null });
    expect(sheet!.code).toMatch(/^([0-9A-Z]{4}-){5}[0-9A-Z]{4}$/);
    expect(await bridge['recovery.setup']({})).toBeNull();

    // The manager is away and the desk is locked.
    await bridge['lock.setPin']({ pin: '482916' });
    await bridge['lock.engage']({});
    const auditBefore = host.audit.list({ limit: 500 }).data.length;
    const statusBefore = recoveryStatus(host.dataDir);

    expect(await refused(() => bridge['recovery.emergencyAccess']({ code: newRecoveryCode() }))).toEqual({ code: 'recovery_code_wrong', path: undefined });
    const typo = sheet!.code.slice(0, -1) + (sheet!.code.at(-1) === 'A' ? 'B' : 'A');
    expect(await refused(() => bridge['recovery.emergencyAccess']({ code: typo }))).toEqual({ code: 'validation_failed', path: 'code' });
    expect(host.audit.list({ limit: 500 }).data.length).toBe(auditBefore);
    expect(recoveryStatus(host.dataDir)).toEqual(statusBefore);

    const granted = await bridge['recovery.emergencyAccess']({ code: sheet!.code.toLowerCase() });
    expect(granted.granted).toBe(true);
    const [newest] = host.audit.list({ limit: 1 }).data;
    expect(newest).toMatchObject({ action: 'emergency_access', record_id: 'desk:recovery_code' });
    expect(JSON.stringify(host.audit.list({ limit: 500 }).data)).not.toContain(sheet!.code.slice(0, 4) + sheet!.code.slice(5, 9));
    expect((recoveryStatus(host.dataDir)).used_at).not.toBeNull();

    const auditAfter = host.audit.list({ limit: 500 }).data.length;
    expect(await refused(() => bridge['recovery.emergencyAccess']({ code: sheet!.code }))).toEqual({ code: 'recovery_code_used', path: undefined });
    expect(host.audit.list({ limit: 500 }).data.length).toBe(auditAfter);

    // The new sheet: its code works, the old one is no longer this desk's.
    await bridge['lock.unlock']({ pin: '482916' });
    const next = await bridge['recovery.newSheet']({});
    expect(next.code).not.toBe(sheet!.code);
    expect(await bridge['recovery.status']({})).toMatchObject({ used_at: null });
    expect(await refused(() => bridge['recovery.emergencyAccess']({ code: sheet!.code }))).toEqual({ code: 'recovery_code_wrong', path: undefined });
    expect((await bridge['recovery.emergencyAccess']({ code: next.code })).granted).toBe(true);
    expect(host.audit.verify()).toMatchObject({ intact: true });
  });
});
