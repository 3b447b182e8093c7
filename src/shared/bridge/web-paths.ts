/**
 * Where the web host shows how to open the desk: the renderer goes there when its address
 * has no per-run secret (or one from an earlier run), instead of calling the bridge in vain.
 */
export const OPEN_PAGE_PATH = '/how-to-open';
