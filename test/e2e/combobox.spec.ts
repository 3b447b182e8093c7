import { holdBridgeCall } from './desk-actions';
import { SEED_CLEARINGHOUSE_ENTITIES } from '@src/main/reference/seed-data';
import { expect, test } from './fixtures';

// The combobox selects its chosen label on focus, so typing replaces it. A label that arrives
// after the focus (the payer list still loading when the person clicked in) is selected the
// same way: what is typed is never appended to it ("Aetnano such payer", a loaded CI run).
test('the card’s payer shown after the person clicked into Payer is replaced by what they type', async ({ desk }) => {
  const { page } = desk;
  const { bridge } = desk.web.host;
  const patient = await bridge['patients.create']({ first_name: 'Ines', last_name: 'Varga', date_of_birth: '1970-04-11' });
  await bridge['cards.create']({ patient_id: patient.id, member_id: 'W300400502', insurance_carrier_ids: [SEED_CLEARINGHOUSE_ENTITIES[0].id] });

  // The payer list is held back until the person is in the field.
  const payers = await holdBridgeCall(page, 'clearinghouseEntities.list');
  await page.reload();
  await page.locator(`#today-row-${patient.id}`).click();
  const payer = page.getByRole('combobox', { name: 'Payer' });
  await payer.click();
  await expect(payer).toHaveValue('');

  payers.release();
  await expect(payer).toHaveValue(SEED_CLEARINGHOUSE_ENTITIES[0].name);
  await page.keyboard.type('cig');
  await expect(payer).toHaveValue('cig');
  await expect(page.getByRole('option', { name: /Cigna/ }).first()).toBeVisible();
});
