import { expect, type Page } from '@playwright/test';
import type { StaffRole } from '@src/shared/bridge/staff-contract';
import { openScreen } from './desk-actions';

/** Settings → Staff, opened if it is not on screen yet. */
export async function openStaffSettings(page: Page) {
  const panel = page.getByTestId('staff');
  if (!(await panel.isVisible())) await openScreen(page, 'Settings');
  await expect(panel).toBeVisible({ timeout: 15_000 });
  return panel;
}

/**
 * A manager adds a person in Settings → Staff, as a person would with the keyboard: the name,
 * the role, the PIN twice, Enter. Waits until the list shows them. The desk must have a
 * manager signed in (the panel is theirs).
 */
export async function addStaffInSettings(page: Page, person: { name: string; role: StaffRole; pin: string }): Promise<void> {
  const panel = await openStaffSettings(page);
  const form = panel.getByTestId('staff-add');
  await form.getByLabel('Name', { exact: true }).fill(person.name);
  await form.getByLabel('Role', { exact: true }).selectOption(person.role);
  await form.getByLabel('PIN or passphrase', { exact: true }).fill(person.pin);
  await form.getByLabel('PIN or passphrase again', { exact: true }).fill(person.pin);
  await form.getByLabel('PIN or passphrase again', { exact: true }).press('Enter');
  await expect(panel.getByTestId('staff-row').filter({ has: page.getByRole('rowheader', { name: person.name, exact: true }) })).toHaveCount(1, { timeout: 15_000 });
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('');
}
