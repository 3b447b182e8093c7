import type { Session } from 'electron';
import { originOf } from './app-protocol';

/**
 * Which permission requests are granted: the camera (video only, no microphone) for the
 * app's own top-level pages, to photograph insurance cards. Geolocation, notifications,
 * the clipboard, USB/serial/HID devices, screen capture, and everything else are denied.
 */
export function isPermissionAllowed(
  request: { permission: string; requestingUrl: string; mediaTypes?: readonly string[]; isMainFrame?: boolean },
  appOrigins: readonly string[],
): boolean {
  if (request.permission !== 'media') return false;
  if (request.isMainFrame === false) return false;
  const origin = originOf(request.requestingUrl);
  if (origin === null || !appOrigins.includes(origin)) return false;
  const types = request.mediaTypes ?? [];
  return types.length > 0 && types.every((type) => type === 'video');
}

export function applyPermissionPolicy(session: Session, appOrigins: readonly string[]): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(isPermissionAllowed({ permission, requestingUrl: details.requestingUrl, mediaTypes, isMainFrame: details.isMainFrame }, appOrigins));
  });
  // Checks (e.g. enumerating cameras) follow the same rule; a check names one media type.
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isPermissionAllowed(
      {
        permission,
        requestingUrl: details.requestingUrl ?? requestingOrigin,
        mediaTypes: details.mediaType ? [details.mediaType] : undefined,
        isMainFrame: details.isMainFrame,
      },
      appOrigins,
    ),
  );
  session.setDevicePermissionHandler(() => false);
}
