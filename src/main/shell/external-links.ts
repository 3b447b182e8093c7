/**
 * The one place that decides which links leave the app for the user's browser: `https:`
 * only (no `file:`, `smb:`, custom schemes that launch other programs, or plain `http:`),
 * with no credentials in the address. Everything else is dropped.
 */
export function isAllowedExternalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'https:' && parsed.hostname !== '' && parsed.username === '' && parsed.password === '';
}

/** Opens an allowed link in the default browser; reports whether it did. */
export function openExternalIfAllowed(openExternal: (url: string) => Promise<void>, url: string): boolean {
  if (!isAllowedExternalUrl(url)) return false;
  void openExternal(url).catch(() => undefined);
  return true;
}
