import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { gfeDeadline } from '@src/shared/gfe-deadline';
import { seriousViolations } from './axe';
import { choosePayer, fillNewPatient, memberIdField, openScreen, runCheck, saveCard, tomorrow } from './desk-actions';
import { DESK_SIZES, expect, test } from './fixtures';

const OFFICE_VISIT = { search: 'office visit', label: 'Professional physician visit office' } as const;
const FEES = 'Visit type,Payer,Allowed\nOffice visit,default,100\n99203,default,165\n36415,default,12\n';
const PATIENT = { first_name: 'Maria', last_name: 'Garcia', date_of_birth: '1978-03-14' };
const SELF_PAY = { first_name: 'Ann', last_name: 'Lee', date_of_birth: '1990-07-07' };

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const dayFromNow = (days: number) => {
  const now = new Date();
  return iso(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days));
};

// Issue 30, items 2 and 5: "Collect today" beside the patient on Today and on tomorrow's
// worklist, and a self-pay patient's Good Faith Estimate, due by its deadline, issued, printed.
for (const viewport of DESK_SIZES) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    test('Collect today on Today and on tomorrow’s worklist; a self-pay visit’s GFE with its deadline and disclaimers, printable', async ({ desk }) => {
      const { page } = desk;
      const { bridge } = desk.web.host;
      await bridge['settings.update']({ default_provider_id: SEED_PROVIDERS[1].id });
      await bridge['appointments.updateSettings']({ visit_types: { 'office visit': 'professional_physician_visit_office', 'new patient': 'professional_physician_visit_office' } });

      await openScreen(page, 'Settings');
      const panel = page.getByTestId('fee-schedule');
      await panel.getByTestId('fee-schedule-file').setInputFiles({ name: 'fees.csv', mimeType: 'text/csv', buffer: Buffer.from(FEES) });
      await expect(panel).toContainText('Imported 3 amounts from fees.csv.');

      await openScreen(page, 'Intake');
      await fillNewPatient(page, { first: PATIENT.first_name, last: PATIENT.last_name, dob: '03/14/1978' });
      await choosePayer(page, 'Aetna');
      await memberIdField(page).fill('W284619375');
      await saveCard(page);
      await runCheck(page, { serviceType: OFFICE_VISIT });
      const tile = page.getByTestId('benefits-summary').getByTestId('collect-today');
      await expect(tile.getByTestId('collect-today-amount')).toBeVisible({ timeout: 20_000 });
      const amount = (await tile.getByTestId('collect-today-amount').textContent())!;
      const steps = (await tile.getByTestId('collect-today-steps').textContent())!.replace(/\.$/, '');

      // Today and tomorrow, as the scheduling system booked them; a self-pay visit 15 days out.
      await bridge['appointments.create']({ date: dayFromNow(0), time: '16:45', ...PATIENT, visit_type: 'Office visit' });
      await bridge['appointments.create']({ date: tomorrow().iso, time: '09:00', ...PATIENT, visit_type: 'Office visit' });
      const selfPayDay = dayFromNow(15);
      await bridge['patients.create'](SELF_PAY);
      await bridge['appointments.create']({ date: selfPayDay, time: '10:30', ...SELF_PAY, visit_type: 'New patient' });

      // Today: beside the patient, the amount; its steps when the row is the active one.
      await openScreen(page, 'Today');
      const row = page.getByRole('option').filter({ hasText: 'Garcia' });
      const tag = row.getByTestId('collect-today-tag');
      await expect(tag).toContainText(`Collect today: ${amount}`);
      await expect(row).toContainText('Garcia, Maria');
      // Clipped to nothing (still its description for a screen reader) until hovered or focused.
      const width = async (locator: typeof tag) => (await locator.boundingBox())?.width ?? 0;
      await expect.poll(() => width(tag.getByTestId('collect-today-tag-steps'))).toBeLessThanOrEqual(1);
      await tag.hover();
      await expect.poll(() => width(tag.getByTestId('collect-today-tag-steps'))).toBeGreaterThan(100);
      await expect(tag.getByTestId('collect-today-tag-steps')).toContainText(steps);
      await desk.shot('today-collect');
      await page.mouse.move(0, 0);
      await expect.poll(() => width(tag.getByTestId('collect-today-tag-steps'))).toBeLessThanOrEqual(1);
      // The keyboard: the listbox's active row shows its steps (options take no focus of their own).
      await page.getByRole('listbox', { name: /Patients/ }).focus();
      for (let i = 0; i < 5 && (await row.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
      await expect.poll(() => width(tag.getByTestId('collect-today-tag-steps'))).toBeGreaterThan(100);

      // Tomorrow's worklist: the same estimate, the steps on focus.
      await openScreen(page, 'Schedule');
      const ready = page.locator('tr[data-status="ready"]').filter({ hasText: 'Garcia' });
      const worklistTag = ready.getByTestId('collect-today-tag');
      await expect(worklistTag).toContainText(`Collect today: ${amount}`);
      await worklistTag.focus();
      await expect.poll(() => width(worklistTag.getByRole('tooltip'))).toBeGreaterThan(100);
      await expect(worklistTag.getByRole('tooltip')).toContainText(steps);
      await desk.shot('worklist-collect');
      expect(await seriousViolations(page), 'serious accessibility violations on the worklist').toEqual([]);

      // The self-pay visit: marked, due 3 business days after today (booked 10 or more ahead).
      await page.locator('#worklist-date').fill(selfPayDay);
      const selfPay = page.locator('tr[data-status]').filter({ hasText: 'Lee, Ann' });
      await selfPay.getByRole('button', { name: 'Self-pay: GFE' }).click();
      const due = gfeDeadline({ scheduled_on: dayFromNow(0), service_on: selfPayDay });
      expect(due.rule).toBe('scheduled_10_or_more');
      const [y, m, d] = due.due_on!.split('-').map(Number);
      const dueText = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
      await expect(selfPay.getByTestId('gfe-state')).toHaveText(`GFE due by ${dueText}`);
      await selfPay.getByRole('button', { name: 'Issue GFE' }).click();
      const form = page.getByRole('group', { name: 'Good Faith Estimate' });
      // Without the practice's details, the GFE is refused, naming them.
      await form.getByRole('checkbox', { name: /99203/ }).check();
      await form.getByRole('button', { name: 'Issue the GFE' }).click();
      await expect(form).toContainText('an NPI is 10 digits with a valid check digit');
      await form.getByRole('checkbox', { name: /36415/ }).check();
      await form.getByLabel('Diagnosis codes (ICD-10, if known)').fill('Z00.00');
      await form.getByLabel('Scheduled separately').fill('Retinal exam');
      await form.getByLabel('Facility name').fill('Riverside Family Practice');
      await form.getByLabel('Facility NPI').fill('1245319599');
      await form.getByLabel('TIN').fill('12-3456789');
      await form.getByLabel('Location (street, city, state, ZIP)').fill('12 Main St, Springfield, IL 62701');
      await desk.shot('gfe-form');
      await form.getByRole('button', { name: 'Issue the GFE' }).click();

      const print = page.getByTestId('gfe-print');
      await expect(print).toBeVisible();
      await expect(print).toContainText('Lee, Ann');
      await expect(print).toContainText('07/07/1990');
      await expect(print).toContainText('Riverside Family Practice, NPI 1245319599, TIN 12-3456789');
      await expect(print.getByTestId('gfe-total')).toHaveText('$177.00');
      const disclaimers = print.getByTestId('gfe-disclaimers');
      await expect(disclaimers).toContainText('at least $400 more than this Good Faith Estimate, you have the right to dispute the bill');
      await expect(disclaimers).toContainText('Keep a copy of this Good Faith Estimate');
      await expect(disclaimers).toContainText('is not a contract');
      await desk.shot('gfe-document');
      expect(await seriousViolations(page), 'serious accessibility violations on the GFE').toEqual([]);
      await page.evaluate(() => {
        const w = globalThis as unknown as { print(): void; printed?: boolean };
        w.print = () => {
          w.printed = true;
        };
      });
      await print.getByRole('button', { name: 'Print' }).click();
      expect(await page.evaluate(() => (globalThis as unknown as { printed?: boolean }).printed)).toBe(true);
      await page.emulateMedia({ media: 'print' });
      await expect(page.getByRole('navigation', { name: 'Screens' })).toBeHidden();
      await expect(print.getByRole('button', { name: 'Print' })).toBeHidden();
      await expect(disclaimers).toBeVisible();
      await desk.shot('gfe-print');
      await page.emulateMedia({ media: 'screen' });
      await print.getByRole('button', { name: 'Close' }).click();
      // Issued: the worklist says so, and printing again shows the same document.
      await expect(selfPay.getByTestId('gfe-state')).toHaveText('GFE issued');
      await selfPay.getByRole('button', { name: 'Print GFE' }).click();
      await expect(page.getByTestId('gfe-print').getByTestId('gfe-total')).toHaveText('$177.00');
      expect(desk.consoleProblems()).toEqual([]);
    });
  });
}
