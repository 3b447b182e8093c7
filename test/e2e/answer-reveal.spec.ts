import { SEED_CLEARINGHOUSE_ENTITIES } from '@src/main/reference/seed-data';
import { holdBridgeCall, runCheck } from './desk-actions';
import { type Desk, expect, test as base } from './fixtures';
import { withUpstream, type Upstream } from './upstream';

const test = base.extend<{ upstream: Upstream }>({
  upstream: async ({}, use) => withUpstream(use),
  hostOptions: async ({ upstream }, use) => use({ upstream: { url: upstream.url, apiKey: upstream.apiKey } }),
});

// Issue 31: the answer on screen at once. A check's answer that arrives while the person's focus
// is elsewhere on the screen is revealed in the same frame that first paints it, never a frame
// later.

interface FrameWatch {
  __framesAnswered: number;
  __framesUnfocused: number;
}

/**
 * Every animation frame from now on (30 with an answer): whether the result box shows an
 * answer (the plan state) without focus inside it or with its top outside the main area. rAF callbacks run before the frame is
 * painted, so a frame that begins with the answer unfocused paints it so.
 */
function watchFrames(): void {
  interface Rect {
    top: number;
    bottom: number;
  }
  interface Box {
    querySelector(selector: string): unknown;
    contains(other: unknown): boolean;
    closest(selector: string): { getBoundingClientRect(): Rect } | null;
    getBoundingClientRect(): Rect;
  }
  const w = globalThis as unknown as FrameWatch & { document: { activeElement: unknown; getElementById(id: string): Box | null }; requestAnimationFrame(run: () => void): number };
  w.__framesAnswered = 0;
  w.__framesUnfocused = 0;
  const watch = () =>
    w.requestAnimationFrame(() => {
      const box = w.document.getElementById('check-result');
      if (box?.querySelector('[data-testid="plan-state"]')) {
        w.__framesAnswered++;
        const main = box.closest('.main')?.getBoundingClientRect();
        const top = box.getBoundingClientRect().top;
        const inView = !!main && top >= main.top && top < main.bottom;
        if (!box.contains(w.document.activeElement) || !inView) w.__framesUnfocused++;
      }
      if (w.__framesAnswered < 30) watch();
    });
  watch();
}

const frames = () => {
  const w = globalThis as unknown as FrameWatch;
  return { answered: w.__framesAnswered, unfocused: w.__framesUnfocused };
};

/**
 * A patient with a card, opened from Today, whose check has been asked and cannot be answered
 * until the upstream is started again: what the person does meanwhile is done before the answer
 * arrives however slow the machine (a fixed delay let a loaded run's answer overtake the click).
 */
async function checkOnItsWay(desk: Desk, upstream: Upstream, person: { first_name: string; last_name: string; date_of_birth: string }, memberId: string) {
  const { page } = desk;
  const { bridge } = desk.web.host;
  const patient = await bridge['patients.create'](person);
  await bridge['cards.create']({ patient_id: patient.id, member_id: memberId, insurance_carrier_ids: [SEED_CLEARINGHOUSE_ENTITIES[0].id] });
  await page.locator(`#today-row-${patient.id}`).click();
  await upstream.stop();
  await runCheck(page);
  await expect(page.getByTestId('check-pending')).toBeVisible();
  return page;
}

test('an answer that arrives while focus is elsewhere is painted in view and focused from its first frame', async ({ desk, upstream }) => {
  const page = await checkOnItsWay(desk, upstream, { first_name: 'Rhea', last_name: 'Lindqvist', date_of_birth: '1975-06-02' }, 'W300400500');
  // While the answer is on its way the person goes back to the form.
  await page.getByLabel('Provider', { exact: true }).focus();
  await page.evaluate(watchFrames);
  await upstream.start();

  await expect(page.getByTestId('plan-state')).toHaveText('Active', { timeout: 20_000 });
  await expect(page.locator('#check-result')).toBeFocused();
  await expect.poll(() => page.evaluate(frames)).toMatchObject({ answered: 30 });
  expect(await page.evaluate(frames)).toEqual({ answered: 30, unfocused: 0 });
});

test('an answer that arrives while the person types in another field leaves the field, its text and its list where they are', async ({ desk, upstream }) => {
  const page = await checkOnItsWay(desk, upstream, { first_name: 'Tove', last_name: 'Aronsen', date_of_birth: '1981-09-14' }, 'W300400501');
  // While the answer is on its way the person starts looking up the next payer.
  const payer = page.getByRole('combobox', { name: 'Payer' });
  await payer.click();
  await payer.pressSequentially('no such payer');
  await upstream.start();

  await expect(page.getByTestId('plan-state')).toHaveText('Active', { timeout: 20_000 });
  await expect(payer).toBeFocused();
  await payer.pressSequentially(' anywhere');
  await expect(payer).toHaveValue('no such payer anywhere');
  await expect(page.getByText(/Nothing matches .* Not listed\? Find the patient’s coverage with a discovery/)).toBeVisible();
});

test('typing begun while the check is still being saved keeps its field: neither the save nor the answer takes it', async ({ desk, upstream }) => {
  const { page } = desk;
  const { bridge } = desk.web.host;
  const patient = await bridge['patients.create']({ first_name: 'Ilse', last_name: 'Brandt', date_of_birth: '1969-02-21' });
  await bridge['cards.create']({ patient_id: patient.id, member_id: 'W300400503', insurance_carrier_ids: [SEED_CLEARINGHOUSE_ENTITIES[0].id] });
  await page.locator(`#today-row-${patient.id}`).click();
  await upstream.stop();
  // The check's save is held until the person has gone on to the next payer (a loaded desk's save).
  const save = await holdBridgeCall(page, 'checks.create');
  await runCheck(page);
  const payer = page.getByRole('combobox', { name: 'Payer' });
  await payer.click();
  await payer.pressSequentially('no such');
  save.release();

  await expect(page.getByTestId('check-pending')).toBeVisible();
  await expect(payer).toBeFocused();
  await payer.pressSequentially(' payer');
  await upstream.start();
  await expect(page.getByTestId('plan-state')).toHaveText('Active', { timeout: 20_000 });
  await expect(payer).toBeFocused();
  await expect(payer).toHaveValue('no such payer');
});
