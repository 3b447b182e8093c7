import { afterEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

/** A check answered elsewhere: the OS notification where the host has a notifier (mocked: it is the OS's). */
let fx: HostFixture;
afterEach(async () => {
  await fx.cleanup();
});
const CHECK = 'eec_01JD0000000000000000000001';

describe('notices.show', () => {
  it('shows an OS notification that names no patient, and a click comes back as notices.opened', async () => {
    const shown: { title: string; body: string; click(): void }[] = [];
    fx = startTestHost({ localApi: false, hotFolder: false, notifier: { show: (notice, onClick) => (shown.push({ ...notice, click: onClick }), true) } });
    const opened: unknown[] = [];
    fx.host.events.on('notices.opened', (payload) => opened.push(payload));
    expect(await dispatchBridgeCall(fx.host.bridge, 'notices.show', { kind: 'check_answered', check_id: CHECK })).toEqual({ ok: true, value: { shown: true } });
    expect(shown).toEqual([{ title: 'Eligibility answer ready', body: 'A check you ran has its answer. Click to open it in Coverdesk.', click: expect.any(Function) }]);
    shown[0]!.click();
    expect(opened).toEqual([{ kind: 'check_answered', check_id: CHECK }]);
  });

  it('without a notifier (browser mode) says so, and the page shows its toast', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    expect(await dispatchBridgeCall(fx.host.bridge, 'notices.show', { kind: 'check_answered', check_id: CHECK })).toEqual({ ok: true, value: { shown: false } });
    expect(await dispatchBridgeCall(fx.host.bridge, 'notices.show', { kind: 'check_answered', check_id: 'Jane Doe' })).toMatchObject({ ok: false, error: { errors: [{ path: 'check_id' }] } });
  });
});
