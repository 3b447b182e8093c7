import { seriousViolations } from './axe';
import { openScreen } from './desk-actions';
import { expect, test, type Desk } from './fixtures';

const DESK = { source: 'dashboard' } as const;
const AETNA = 'che_01JD0000000000000000000001';
const MAPLE = 'prv_01JD0000000000000000000001';

/** Checks the screen as it is now, and keeps a screenshot of it. */
async function expectAccessible(desk: Desk, screen: string): Promise<void> {
  const { page } = desk;
  await desk.shot(screen.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
  const violations = await seriousViolations(page);
  expect(violations, `serious or critical axe violations on ${screen}`).toEqual([]);
}

// axe-core finds no serious or critical violations on any screen, in the states a desk sees.
test('every screen passes axe-core with no serious or critical violations', async ({ desk }) => {
  const { page, web } = desk;
  const { service } = web.host;
  await expect(page.getByRole('heading', { name: 'Today' })).toBeVisible();
  await expectAccessible(desk, 'Today (empty)');

  const patient = await service.create('patients', { first_name: 'Aisha', last_name: 'Khan', date_of_birth: '1992-07-21' }, DESK);
  // The rejected card first, then the good one: the newest card is the patient's card (issue 26, item 3).
  const bad = await service.create('insurance_cards', { patient_id: patient.id, member_id: 'AAA72-001', insurance_carrier_ids: [AETNA] }, DESK);
  const good = await service.create('insurance_cards', { patient_id: patient.id, member_id: '918273645', insurance_carrier_ids: [AETNA] }, DESK);
  const failing = await service.create('electronic_eligibility_checks', { insurance_card_id: bad.id, provider_id: MAPLE, clearinghouse_entity_id: AETNA, service_type: 'health_benefit_plan_coverage' }, DESK);
  await service.create('electronic_eligibility_checks', { insurance_card_id: good.id, provider_id: MAPLE, clearinghouse_entity_id: AETNA, service_type: 'physician_visit_office_sick' }, DESK);
  await service.create('electronic_eligibility_discoveries', { insurance_card_id: good.id, source: 'dashboard' }, DESK);

  const row = page.getByRole('option', { name: /Khan, Aisha/ });
  await expect(row).toContainText('Active', { timeout: 20_000 });
  await expectAccessible(desk, 'Today (with patients)');
  await page.getByLabel('Search by name, date of birth or member id').fill('khan');
  await expectAccessible(desk, 'Today (search)');

  await row.click();
  await expect(page.getByTestId('benefits-summary')).toBeVisible();
  await expectAccessible(desk, 'Eligibility (summary and benefits)');
  await page.getByRole('combobox', { name: 'Service type' }).fill('therapy');
  await expectAccessible(desk, 'Eligibility (service type list open)');
  await page.keyboard.press('Escape');

  await page.getByRole('listitem').filter({ hasText: 'AAA72-001' }).getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page.getByTestId('check-failure')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('check-failure')).toContainText('payer code 72');
  expect(failing.id).toBeTruthy();
  await expectAccessible(desk, 'Eligibility (failure with fixes)');

  await openScreen(page, 'Discovery');
  await expect(page.getByTestId('discovery')).toBeVisible();
  await expectAccessible(desk, 'Discovery');

  await openScreen(page, 'Intake');
  // A new intake: no patient carried over from Discovery (issue 26, item 6).
  await expectAccessible(desk, 'Intake (a new intake)');
  await expect(page.getByRole('radio', { name: 'New patient' })).toBeChecked();
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByText('First name is required.')).toBeVisible();
  await expectAccessible(desk, 'Intake (field errors)');
  await page.getByRole('button', { name: 'Use camera' }).first().click();
  await expect(page.getByRole('button', { name: 'Take photo' })).toBeEnabled();
  await expectAccessible(desk, 'Intake (camera open)');

  await openScreen(page, 'Eligibility');
  await expectAccessible(desk, 'Eligibility (patient search)');

  await openScreen(page, 'Sync');
  await expect(page.getByTestId('sync-counts')).toBeVisible();
  await expectAccessible(desk, 'Sync');

  await openScreen(page, 'Settings');
  await expect(page.getByRole('region', { name: 'Local API for scanners' })).toContainText('Running');
  await expectAccessible(desk, 'Settings');
  await page.getByRole('button', { name: 'Make a new token…' }).click();
  await expect(page.getByRole('dialog', { name: 'Make a new token?' })).toBeVisible();
  await expectAccessible(desk, 'Settings (confirm dialog)');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
});

test('the patient pickers of Eligibility and Discovery pass axe-core', async ({ desk }) => {
  const { page } = desk;
  for (const screen of ['Eligibility', 'Discovery'] as const) {
    await openScreen(page, screen);
    await expect(page.getByLabel('Find the patient')).toBeVisible();
    await expectAccessible(desk, `${screen} (no patient yet)`);
  }
});
