import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { createEmbeddedSandbox } from '@src/main/sync/embedded-sandbox';
import { makePng } from '@test/support/images';
import { makeTempDir } from '@test/support/temp-dir';

const temp = makeTempDir('coverdesk-embedded-sandbox-');
afterAll(() => temp.cleanup());

it('replays a create resent after a restart (an entry a crash left sending), instead of making it twice', async () => {
  const encryptionKey = randomBytes(32);
  const upload = async ({ url, apiKey }: { url: string; apiKey: string }) =>
    fetch(`${url}/v1/photos`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'image/png', 'Idempotency-Key': 'obx_resent_after_restart' },
      body: Buffer.from(makePng(8, 8)),
    });

  const first = createEmbeddedSandbox({ dataDir: temp.dir, encryptionKey, delayMs: 30 });
  const before = await first.ensure();
  expect((await upload(before)).status).toBe(201);
  await first.stop();

  const second = createEmbeddedSandbox({ dataDir: temp.dir, encryptionKey, delayMs: 30 });
  const after = await second.ensure();
  try {
    expect(after.apiKey).toBe(before.apiKey);
    const resent = await upload(after);
    expect(resent.status).toBe(201);
    expect(resent.headers.get('idempotent-replayed')).toBe('true');
  } finally {
    await second.stop();
  }
});
