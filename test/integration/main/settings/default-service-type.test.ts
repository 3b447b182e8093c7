import { afterAll, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { createHost, type Host } from '@src/main/host/create-host';
import { SEED_ROSTER } from '@src/main/reference/seed-data';
import { makeTempDir } from '@test/support/temp-dir';
import { closeAfterEach, FAST_POLICY, waitFor, waitForDrained } from '@test/support/sync/sync-harness';

/**
 * The practice's default service type: saved in Settings, refused when not a service
 * type (nothing saved), and asked about by the checks a discovery starts, through the
 * real host, its outbox and the embedded sandbox over HTTP.
 */
const temp = makeTempDir('coverdesk-default-service-type-');
let host: Host | undefined;
closeAfterEach(() => host);
afterAll(() => temp.cleanup());

function open(): Host {
  return createHost({ dataDir: temp.dir, localApi: false, hotFolder: false, sync: { policy: FAST_POLICY, timeoutMs: 2_000, sandboxDelayMs: 30 } });
}

describe('default service type per practice', () => {
  it('is saved, read back, cleared; an unknown type is refused naming the field and nothing is saved', async () => {
    host = open();
    expect((await host.bridge['settings.get']({})).default_service_type).toBeNull();
    expect((await host.bridge['settings.update']({ default_service_type: 'physical_therapy' })).default_service_type).toBe('physical_therapy');
    // Through the one entry the renderer uses: the contract refuses, naming the field.
    const refused = await dispatchBridgeCall(host.bridge, 'settings.update', { default_service_type: 'massage' });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toContain('default_service_type');
    expect((await host.bridge['settings.get']({})).default_service_type).toBe('physical_therapy');
    expect((await host.bridge['settings.update']({ default_service_type: null })).default_service_type).toBeNull();
  });

  it('a saved change is announced to every open screen with the settings as saved; a refused one is not', async () => {
    host = open();
    const announced: unknown[] = [];
    host.events.on('settings.changed', (settings) => announced.push(settings));
    const saved = await host.bridge['settings.update']({ default_service_type: 'chiropractic' });
    const { connection: _test, ...settings } = saved;
    expect(announced).toEqual([settings]);
    await dispatchBridgeCall(host.bridge, 'settings.update', { default_service_type: 'massage' });
    expect(announced).toHaveLength(1);
  });

  it('the checks a discovery starts ask about it', async () => {
    host = open();
    await host.start();
    await host.bridge['settings.update']({ default_service_type: 'physical_therapy' });
    const person = SEED_ROSTER[0];
    const patient = await host.bridge['patients.create']({ first_name: person.first_name, last_name: person.last_name, date_of_birth: person.date_of_birth });
    const card = await host.bridge['cards.create']({ patient_id: patient.id });
    const discovery = await host.bridge['discoveries.create']({ insurance_card_id: card.id });
    expect(discovery.service_type).toBe('physical_therapy');
    // A discovery that names its own type keeps it.
    const own = await host.bridge['discoveries.create']({ insurance_card_id: card.id, service_type: 'chiropractic' });
    expect(own.service_type).toBe('chiropractic');
    await waitForDrained({ host });
    const spawned = await waitFor('the checks the discovery started', async () => {
      const list = await host!.bridge['checks.list']({ limit: 100 });
      const checks = list.data.filter((c) => c.electronic_eligibility_discovery_id === discovery.id);
      return checks.length > 0 ? checks : undefined;
    });
    expect(spawned.map((c) => c.service_type)).toEqual(spawned.map(() => 'physical_therapy'));
  });
});
