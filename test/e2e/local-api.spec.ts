import { httpRequest } from '@test/support/http-request';
import { openScreen } from './desk-actions';
import { expect, test } from './fixtures';

// (d) A record created through the local API appears on Today without a reload.
test('a patient and card created by scanner software through the local API appear on Today at once', async ({ desk }) => {
  const { page } = desk;
  await page.evaluate(() => ((globalThis as unknown as { sameDocument: boolean }).sameDocument = true));

  // The scanner's integrator reads the address and token from Settings, as docs/local-api.md says.
  await openScreen(page, 'Settings');
  const panel = page.getByRole('region', { name: 'Local API for scanners' });
  await expect(panel.getByText('Running')).toBeVisible();
  await panel.getByRole('button', { name: 'Show token' }).click();
  const token = (await panel.getByTestId('local-api-token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  const socketPath = (await panel.locator('p', { hasText: 'Address:' }).locator('.mono').textContent())?.trim() ?? '';
  expect(socketPath).toMatch(/local-api\.sock$/);
  await desk.shot('settings-local-api');

  await openScreen(page, 'Today');
  await expect(page.getByText('No patients yet today.')).toBeVisible();

  const post = (path: string, body: unknown) =>
    httpRequest({ socketPath }, { method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const patient = await post('/v1/patients', { first_name: 'Kwame', last_name: 'Mensah', date_of_birth: '1988-02-29' });
  expect(patient.status).toBe(201);
  const row = page.getByRole('option', { name: /Mensah, Kwame/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText('No card');

  const card = await post('/v1/insurance_cards', { patient_id: patient.json.id, member_id: 'U93746182', insurance_carrier_ids: ['che_01JD0000000000000000000008'] });
  expect(card.status).toBe(201);
  await expect(row).toContainText('U93746182');
  await expect(row).toContainText('Ambetter');
  await desk.shot('today-from-local-api');
  expect(await page.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});
