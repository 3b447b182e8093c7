import type { EventHub } from '../support/event-hub';
import type { HandlersFor } from './handlers';

/** The operating system's notifications (the desktop app's Electron `Notification`). */
export interface SystemNotifier {
  /** Shows it; `onClick` runs when the person clicks it. False when the system would not show it. */
  show(notice: { title: string; body: string }, onClick: () => void): boolean;
}

/** Words the host chooses: they may show on a locked screen, so they name no patient. */
const CHECK_ANSWERED = { title: 'Eligibility answer ready', body: 'A check you ran has its answer. Click to open it in Coverdesk.' };

/**
 * `notices.show`: an OS notification where the host has a notifier; a click comes back to
 * the page as `notices.opened`. Without one (browser mode) it answers `shown: false` and the
 * page shows its own toast.
 */
export function noticeHandlers(deps: { notifier?: SystemNotifier; events: EventHub }): HandlersFor<'notices.show'> {
  return {
    'notices.show': async (input) => {
      if (!deps.notifier) return { shown: false };
      return { shown: deps.notifier.show(CHECK_ANSWERED, () => deps.events.emit('notices.opened', input)) };
    },
  };
}
