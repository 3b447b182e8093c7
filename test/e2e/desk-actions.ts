import type { Locator, Page, Route } from '@playwright/test';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { buildActiveBenefits } from '@src/main/sandbox/benefits-builder';
import { summarizeBenefits } from '@src/shared/benefit-summary';
import { estimateVisit } from '@src/shared/estimate';
import { expect } from './fixtures';

/** What the desk types at Intake for a new patient. */
export interface NewPatient {
  first: string;
  last: string;
  /** As a desk types it: MM/DD/YYYY. */
  dob: string;
}

/**
 * One bridge method's answers held back (the host's real answer, fetched at once) until
 * `release`: what the person does meanwhile is certain to come before the answer, however fast
 * or slow this machine. `asked` settles when the first call has reached the host.
 */
export async function holdBridgeCall(page: Page, method: string): Promise<{ asked: Promise<void>; release(): void }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (reached = resolve));
  await page.route(`**/bridge/${method}`, async (route: Route) => {
    const response = await route.fetch();
    reached();
    await released;
    await route.fulfill({ response });
  });
  return { asked, release };
}

export async function openScreen(page: Page, name: 'Today' | 'Intake' | 'Eligibility' | 'Discovery' | 'Sync' | 'Settings' | 'Audit log' | 'Schedule' | 'End of day'): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: new RegExp(`^${name}`) }).click();
}

export async function fillNewPatient(page: Page, patient: NewPatient): Promise<void> {
  await page.getByLabel('First name', { exact: true }).fill(patient.first);
  await page.getByLabel('Last name', { exact: true }).fill(patient.last);
  await page.getByLabel('Date of birth', { exact: true }).fill(patient.dob);
}

/** Types into a searchable list and picks the first match with Enter, as a desk would. */
export async function choose(combobox: Locator, text: string): Promise<void> {
  await combobox.click();
  // Typing opens the list with the first match active.
  await combobox.fill(text);
  // The payer list is read in pages (over a thousand payers): Enter once a match shows, as a desk would.
  const list = combobox.page().locator(`[id="${await combobox.getAttribute('aria-controls')}"]`);
  await expect(list.locator('[role="option"]:not([aria-disabled])').first()).toBeVisible();
  await combobox.press('Enter');
}

export async function choosePayer(page: Page, name: string): Promise<void> {
  await choose(page.getByRole('combobox', { name: 'Payer' }), name);
  await expect(page.getByRole('combobox', { name: 'Payer' })).toHaveValue(name);
}

/** A card's front photo chosen from the computer through the slot's file picker. */
export async function chooseFront(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose front photo…' }).click();
  await (await chooser).setFiles(file);
}

/** Tomorrow on this computer, as a scheduling system's M/D/YYYY and as the host's YYYY-MM-DD. */
export function tomorrow(): { us: string; iso: string } {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return { us: `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`, iso: `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}` };
}

/** A schedule export dropped on the Schedule screen, as a file dragged from the desktop. */
export async function dropSchedule(page: Page, name: string, csv: string): Promise<void> {
  // The DataTransfer is made in the page: DOM types are the page's, not this file's.
  const drop = await page.evaluateHandle(`(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(csv)}], ${JSON.stringify(name)}, { type: 'text/csv' })); return t; })()`);
  await page.getByTestId('schedule-drop').dispatchEvent('drop', { dataTransfer: drop });
}

export function memberIdField(page: Page): Locator {
  return page.getByLabel('Member id', { exact: true });
}

export async function saveCard(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Eligibility — / })).toBeVisible();
}

/**
 * Saves a card read from a photo, as a desk that has compared what was read with the card:
 * Save asks about fields still marked "Check this", and the answer is that they match.
 */
export async function saveReadCard(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save card' }).click();
  const eligibility = page.getByRole('heading', { level: 1, name: /^Eligibility — / });
  const marks = page.getByTestId('save-question-marks');
  await expect(eligibility.or(marks)).toBeVisible({ timeout: 30_000 });
  if (await marks.isVisible()) await marks.getByRole('button', { name: /match(es)? the card: save$/ }).click();
  await expect(eligibility).toBeVisible();
}

/** From the Eligibility screen: provider, service type (payer comes from the card), run. */
export async function runCheck(page: Page, options: { provider?: string; serviceType?: { search: string; label: string } } = {}): Promise<void> {
  const provider = SEED_PROVIDERS.find((p) => p.name === (options.provider ?? 'Maple Street Family Medicine'));
  if (!provider) throw new Error(`No seeded provider named ${options.provider}`);
  await page.getByLabel('Provider', { exact: true }).selectOption({ label: `${provider.name} (NPI ${provider.npi})` });
  if (options.serviceType) {
    await choose(page.getByRole('combobox', { name: 'Service type' }), options.serviceType.search);
    await expect(page.getByRole('combobox', { name: 'Service type' })).toHaveValue(options.serviceType.label);
  }
  await page.getByRole('button', { name: 'Check eligibility' }).click();
}

/** Presses Tab until `target` has focus: keyboard only, without depending on the exact tab order. */
export async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  const focused = await page.evaluate(() => {
    const el = (globalThis as unknown as { document: { activeElement: { tagName: string; id: string; textContent: string | null } | null } }).document.activeElement;
    return el ? `${el.tagName}#${el.id} "${(el.textContent ?? '').slice(0, 40)}"` : 'nothing';
  });
  throw new Error(`Tab never reached ${target.toString()}; focus is on ${focused}`);
}

const OFFICE_VISIT = { search: 'office visit', label: 'Professional physician visit office' } as const;

/**
 * The estimate flow's opening (issue 30): Maria Garcia registered with an Aetna card and an
 * office visit checked against the sandbox; answers the "Collect today" tile and what it
 * must say: the sandbox's own answer for her member id through the same arithmetic, with
 * the fee schedule's `allowedCents`.
 */
export async function checkOfficeVisitForEstimate(page: Page, allowedCents: number): Promise<{ tile: Locator; expected: ReturnType<typeof estimateVisit> }> {
  await openScreen(page, 'Intake');
  await fillNewPatient(page, { first: 'Maria', last: 'Garcia', dob: '03/14/1978' });
  await choosePayer(page, 'Aetna');
  await memberIdField(page).fill('W284619375');
  await saveCard(page);
  await runCheck(page, { serviceType: OFFICE_VISIT });
  const tile = page.getByTestId('benefits-summary').getByTestId('collect-today');
  await expect(tile).toBeVisible({ timeout: 20_000 });
  const summary = summarizeBenefits({ benefits: buildActiveBenefits('W284619375', 'professional_physician_visit_office'), service_type: 'professional_physician_visit_office' });
  const now = new Date().toISOString();
  return { tile, expected: estimateVisit({ summary, allowed_cents: allowedCents, checked_at: now, now, freshness_days: 30 }) };
}

/** The first-start screen (issue 28): the manager's name and PIN, once, and the desk opens signed in as them. */
export async function firstStart(page: Page, manager: { name: string; pin: string }): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome: who manages this desk?' })).toBeVisible();
  await page.getByLabel('Your name').fill(manager.name);
  await page.getByLabel('Your PIN', { exact: true }).fill(manager.pin);
  await page.getByLabel('Your PIN again').fill(manager.pin);
  await page.getByRole('button', { name: 'Start using Coverdesk' }).click();
  await expect(page.getByTestId('signed-in')).toContainText(manager.name);
}
