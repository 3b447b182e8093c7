import fs from 'node:fs/promises';
import path from 'node:path';

/** A file name, never a path: no separator, no leading dot (so neither `..` nor a hidden file). */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/**
 * The build's assets kept in memory once read (issue 31, Today's first render): their names
 * carry their content's hash, so a name's bytes never change while the host runs. Streamed
 * from disk, the 220 kB first-screen script came in 64 kB pieces that each waited for a turn
 * of the host's thread, which at first load is busy answering the first reads (176 ms from
 * first byte to last on a loaded machine). A name that is not there is asked again next
 * time (a build made while the host runs).
 */
export function hashedAssets(assetsDir: string): (name: string) => Promise<Uint8Array<ArrayBuffer> | null> {
  const read = new Map<string, Promise<Uint8Array<ArrayBuffer> | null>>();
  return (name) => {
    if (!ASSET_NAME.test(name)) return Promise.resolve(null);
    let bytes = read.get(name);
    if (!bytes) {
      // Kept as the plain bytes a response body takes, so no answer copies them again.
      bytes = fs.readFile(path.join(assetsDir, name)).then(
        (file) => new Uint8Array(file),
        () => {
          read.delete(name);
          return null;
        },
      );
      read.set(name, bytes);
    }
    return bytes;
  };
}
