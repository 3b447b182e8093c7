import fs from 'node:fs';

/** Why a file or folder that guards the local API cannot be trusted. */
export class UnsafePermissionsError extends Error {
  constructor(readonly target: string, detail: string, refused = 'start its local API') {
    super(`${target}: ${detail} Coverdesk will not ${refused} until this is fixed.`);
    this.name = 'UnsafePermissionsError';
  }
}

const isPosix = process.platform !== 'win32';

/**
 * Refuses a path another local user could use: group/other permission bits, or another
 * owner. (On Windows the data dir's ACL, inherited from the user profile, is what guards it.)
 */
export function assertPrivate(target: string, kind: 'folder' | 'file', refused?: string): void {
  if (!isPosix) return;
  const stat = fs.statSync(target);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new UnsafePermissionsError(target, `this ${kind} belongs to another user (uid ${stat.uid}).`, refused);
  }
  const loose = stat.mode & 0o077;
  if (loose !== 0) {
    const expected = kind === 'folder' ? '700' : '600';
    throw new UnsafePermissionsError(
      target,
      `this ${kind} can be used by other users on this computer (mode ${(stat.mode & 0o777).toString(8)}; it must be ${expected}). Run: chmod ${expected} "${target}"`,
      refused,
    );
  }
}

/** Creates a user-only folder, or checks an existing one. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  assertPrivate(dir, 'folder');
}
