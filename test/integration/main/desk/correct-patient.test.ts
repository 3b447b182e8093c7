import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import type { Sandbox } from '@src/main/sandbox/start-sandbox';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { ServiceError } from '@src/shared/service-error';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { makeTempDir } from '@test/support/temp-dir';
import { closeAfterEach, freePort, SANDBOX_KEY, startSyncHost, startUpstream, waitFor, waitForDrained, type SyncHostFixture } from '@test/support/sync/sync-harness';

/**
 * Issue 26, item 7: a patient's name or date of birth corrected on the chart (no second
 * chart), audited, and given to the upstream the only way a creates-only contract allows.
 */
const X12_FILE = path.resolve(__dirname, '../../../fixtures/x12-271/tigershark_271-example-2.x12');
const CHECK = { provider_id: SEED_PROVIDERS[0].id, clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[0].id, service_type: 'health_benefit_plan_coverage' } as const;

let fx: HostFixture | undefined;
let sync: SyncHostFixture | undefined;
let upstream: Sandbox | undefined;
closeAfterEach(() => sync, () => upstream, () => (fx ? { close: () => fx!.cleanup() } : undefined));

describe('correcting a patient', () => {
  it('corrects the chart in place, audits it, and corrects the request not sent yet; a check made after it carries the new details', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const { bridge, database } = fx.host;
    const patient = await bridge['patients.create']({ first_name: 'Janet', last_name: 'Doe', date_of_birth: '1937-03-06' });
    const card = await bridge['cards.create']({ patient_id: patient.id, member_id: '111111111' });

    const corrected = await bridge['patients.correct']({ id: patient.id, first_name: 'Janet', last_name: 'Doe', date_of_birth: '1937-03-05' });
    expect(corrected).toMatchObject({ upstream: 'not_sent_yet', cards_resent: 0, patient: { id: patient.id, date_of_birth: '1937-03-05' } });
    // One chart, corrected.
    expect((await bridge['patients.list']({})).data).toHaveLength(1);
    expect(await bridge['patients.get']({ id: patient.id })).toMatchObject({ date_of_birth: '1937-03-05' });
    // The request still waiting carries the corrected details; no second patient goes upstream.
    const entries = database.sqlite.prepare(`SELECT payload FROM outbox WHERE record_id = ?`).all(patient.id) as { payload: string }[];
    expect(entries.map((e) => JSON.parse(e.payload))).toEqual([{ first_name: 'Janet', last_name: 'Doe', date_of_birth: '1937-03-05' }]);
    // Audited by id: who corrected which patient, no name in the log.
    const audit = (await bridge['audit.list']({ limit: 10 })).data;
    expect(audit.filter((e) => e.action === 'correct')).toEqual([expect.objectContaining({ record_id: patient.id })]);
    const check = await bridge['checks.create']({ insurance_card_id: card.id, ...CHECK });
    expect(check).toMatchObject({ patient_first_name: 'Janet', patient_date_of_birth: '1937-03-05' });
  });

  it('refuses a bad date or no change, naming the field, and writes nothing', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    const { bridge } = fx.host;
    const patient = await bridge['patients.create']({ first_name: 'Ines', last_name: 'Okafor', date_of_birth: '1984-03-07' });
    const before = fx.snapshot();
    const bad = (await dispatchBridgeCall(fx.host.bridge, 'patients.correct', { id: patient.id, first_name: 'Ines', last_name: 'Okafor', date_of_birth: '1984-02-30' })) as { ok: false; error: { errors: { path: string }[] } };
    expect(bad.ok).toBe(false);
    expect(bad.error.errors[0].path).toBe('date_of_birth');
    await expect(bridge['patients.correct']({ id: patient.id, first_name: 'Ines', last_name: 'Okafor', date_of_birth: '1984-03-07' })).rejects.toThrow(ServiceError);
    expect(fx.snapshot()).toEqual(before);
  });

  it('after the patient reached the service: the corrected patient and the card are sent again, and the re-run that the payer refused (AAA 71) answers active', async () => {
    // The payer (a real 271) knows Janet Doe, born 1937-03-05, member 111111111.
    const x12 = makeTempDir('coverdesk-x12-');
    fs.copyFileSync(X12_FILE, path.join(x12.dir, path.basename(X12_FILE)));
    upstream = await startUpstream(await freePort(), { x12: x12.dir, delayMs: 20 });
    x12.cleanup();
    sync = await startSyncHost(upstream.url);
    const { bridge } = sync.host;
    const patient = await bridge['patients.create']({ first_name: 'Janet', last_name: 'Doe', date_of_birth: '1937-03-06' });
    const card = await bridge['cards.create']({ patient_id: patient.id, member_id: '111111111' });
    const refused = await bridge['checks.create']({ insurance_card_id: card.id, ...CHECK });
    await waitForDrained(sync);
    expect(await bridge['checks.get']({ id: refused.id })).toMatchObject({ status: 'failure', clearinghouse_entity_errors: [expect.objectContaining({ code: '71' })] });
    const oldRemote = { patient: (await bridge['patients.get']({ id: patient.id })).sync!.remote_id, card: (await bridge['cards.get']({ id: card.id })).sync!.remote_id };

    const corrected = await bridge['patients.correct']({ id: patient.id, first_name: 'Janet', last_name: 'Doe', date_of_birth: '1937-03-05' });
    expect(corrected).toMatchObject({ upstream: 'registered_again', cards_resent: 1 });
    const rerun = await bridge['checks.create']({ insurance_card_id: card.id, ...CHECK });
    await waitForDrained(sync);
    expect(await bridge['checks.get']({ id: rerun.id })).toMatchObject({ status: 'success', patient_date_of_birth: '1937-03-05' });
    // Still one chart and one card here; the service has a new patient and card, the old ones kept.
    expect((await bridge['patients.list']({})).data).toHaveLength(1);
    expect((await bridge['cards.list']({})).data).toHaveLength(1);
    const newRemote = { patient: (await bridge['patients.get']({ id: patient.id })).sync!.remote_id, card: (await bridge['cards.get']({ id: card.id })).sync!.remote_id };
    expect(newRemote.patient).not.toBe(oldRemote.patient);
    expect(newRemote.card).not.toBe(oldRemote.card);
    const upstreamPatient = await waitFor('the corrected patient upstream', async () => {
      const res = await fetch(`${upstream!.url}/v1/patients/${newRemote.patient}`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
      return res.ok ? ((await res.json()) as { date_of_birth: string }) : undefined;
    });
    expect(upstreamPatient.date_of_birth).toBe('1937-03-05');
  }, 30_000);
});
