/**
 * Where the web host shows how to open the desk: the renderer goes there when its address
 * has no per-run secret (or one from an earlier run), instead of calling the bridge in vain.
 */
export const OPEN_PAGE_PATH = '/how-to-open';

/**
 * How a browser-mode page knows it missed events (issue 29; web-bridge.ts): every bridge answer
 * carries, in this header, how many events the host had told when the call began, and the event
 * stream opens with a message of this name carrying how many it had told when it began listening.
 */
export const EVENTS_TOLD_HEADER = 'x-coverdesk-events-told';
export const EVENT_STREAM_OPENED = 'stream.opened';
