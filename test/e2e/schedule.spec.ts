import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { seriousViolations } from './axe';
import { dropSchedule, tomorrow } from './desk-actions';
import { expect, test } from './fixtures';

// Issue 16, end to end: drop a schedule export, correct a column, check tomorrow, fix a rejection.
test('drop a schedule, correct a column, check tomorrow with progress, and fix a rejection from the worklist', async ({ desk }) => {
  const { page } = desk;
  const { bridge } = desk.web.host;
  const aetna = SEED_CLEARINGHOUSE_ENTITIES[0].id;
  // Two patients the desk already has, with cards: one the sandbox answers active, one it rejects (AAA 72).
  const people = [
    { first_name: 'James', last_name: 'Smith', date_of_birth: '1965-11-02', member_id: 'U51837264' },
    { first_name: 'Maria', last_name: 'Garcia', date_of_birth: '1978-03-14', member_id: 'AAA72-001' },
  ];
  // The practice's usual provider, as Settings keeps it: a re-run from the fix uses it.
  await bridge['settings.update']({ default_provider_id: SEED_PROVIDERS[1].id });
  for (const { member_id, ...person } of people) {
    const patient = await bridge['patients.create'](person);
    await bridge['cards.create']({ patient_id: patient.id, member_id, insurance_carrier_ids: [aetna] });
  }

  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Schedule/ }).click();
  await expect(page.getByRole('heading', { name: 'Schedule', level: 1 })).toBeVisible();

  // "Born" is a header no scheduling system we know uses: the desk maps it by hand.
  const day = tomorrow();
  const csv = [
    'Appt Date,Time,Patient,Born,Provider,Visit Type',
    `${day.us},9:00 AM,"SMITH, JAMES",11/02/1965,"${SEED_PROVIDERS[1].name}",Office Visit`,
    `${day.us},9:20 AM,"Garcia, María",3/14/1978,"${SEED_PROVIDERS[1].name}",Follow up`,
    `${day.us},9:40 AM,"Lee, Ann",7/7/1990,"${SEED_PROVIDERS[1].name}",Office Visit`,
  ].join('\r\n');
  await dropSchedule(page, 'tomorrow.csv', csv);

  const preview = page.getByTestId('schedule-preview');
  await expect(preview).toContainText('tomorrow.csv: 3 rows');
  await expect(page.getByLabel('Date of birth')).toHaveValue('');
  await page.getByLabel('Date of birth').selectOption({ label: 'Born' });
  await desk.shot('schedule-preview');
  await preview.getByRole('button', { name: 'Import 3 rows' }).click();
  await expect(page.getByTestId('import-result')).toContainText('3 new appointments');
  await expect(page.getByTestId('import-result')).toContainText('1 new patient registered');

  // Three appointments: two with cards to check, Ann Lee (new, no card) needs the card photo.
  await page.getByRole('button', { name: 'Check tomorrow' }).click();
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toContainText(/of 3 done \(2 checks, 1 need no check\)/);
  await expect(progress).toContainText('3 of 3 done', { timeout: 30_000 });
  await expect(progress).toContainText('finished');

  const rejected = page.locator('tr[data-status="rejected"]');
  await expect(rejected).toContainText('Garcia, María');
  await expect(page.locator('tr[data-status="ready"]')).toContainText('SMITH, JAMES');
  await expect(page.locator('tr[data-status="no_card"]')).toContainText('Lee, Ann');
  // What needs a person comes first.
  await expect(page.locator('tr[data-status]').first()).not.toHaveAttribute('data-status', 'ready');
  await desk.shot('worklist');
  expect(await seriousViolations(page), 'serious accessibility violations on the Schedule screen').toEqual([]);

  await rejected.getByRole('button', { name: 'Open the fix' }).click();
  const failure = page.getByTestId('check-failure');
  await expect(failure).toContainText('The payer did not accept the member id.');
  await page.getByLabel('Member id, as printed on the card').fill('W284619375');
  await page.getByRole('button', { name: 'Save the correction and run again' }).click();
  await expect(page.getByTestId('benefits-summary').getByTestId('plan-state')).toHaveText('Active', { timeout: 20_000 });

  // Back on the schedule, Maria's appointment is ready now.
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Schedule/ }).click();
  await expect(page.locator('tr[data-status="ready"]')).toHaveCount(2, { timeout: 20_000 });

  // Today: a patient with an appointment today shows its time and status beside the name.
  const now = new Date();
  const todayIso = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  await bridge['appointments.create']({ date: todayIso, time: '16:45', first_name: 'James', last_name: 'Smith', date_of_birth: '1965-11-02' });
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Today/ }).click();
  const row = page.getByRole('option').filter({ hasText: 'Smith' });
  await expect(row.getByTestId('today-appointment')).toHaveText(/4:45 PM\s*Ready/);
  expect(desk.consoleProblems()).toEqual([]);
});
