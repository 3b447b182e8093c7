import { createDecipheriv } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { Clock } from '../support/clock';
import { DigitalCardFailure } from './digital-card-failure';
import { guardedFetch, type NetworkPolicy } from './guarded-fetch';
import { MAX_INFLATED_BYTES } from './shc-payload';

/**
 * SMART Health Links: the `shlink:/` payload (alone or behind a viewer URL
 * `https://…#shlink:/…`), its manifest and files fetched through `guardedFetch`, and each
 * file decrypted (JWE compact, `dir` + `A256GCM`, with the link's key). Only the link's
 * own URL and the files its manifest lists are ever fetched.
 */

export interface ShLink {
  url: string;
  /** 32 bytes, base64url in the link. */
  key: Buffer;
  exp?: number;
  flag: string;
  label?: string;
  v?: number;
}

export interface ShLinkFile {
  contentType: string;
  /** The decrypted content, as text. */
  content: string;
}

/** Asks the person for the link's passcode; null: they gave none (cancelled). */
export type AskPasscode = (ask: { label: string | null; remainingAttempts: number | null; wrong: boolean }) => Promise<string | null>;

export interface ShLinkDeps {
  clock: Clock;
  network: NetworkPolicy;
  /** Named to the link's server as the recipient (the spec asks for one). */
  recipient: string;
  askPasscode?: AskPasscode;
}

/** The passcode is asked at most this many times for one read; the link's server locks it after its own limit. */
export const PASSCODE_TRIES = 3;
const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_FILES = 20;

/** The link needs a passcode and nobody is there to give it (the sync worker's retry): try again when a person reads it. */
export class PasscodeNeeded extends Error {
  constructor() {
    super('The SMART Health Link needs its passcode.');
    this.name = 'PasscodeNeeded';
  }
}

export function looksLikeShlink(text: string): boolean {
  return /(^|#)shlink:\//.test(text.trim());
}

export function parseShlink(text: string): ShLink {
  const trimmed = text.trim();
  const at = trimmed.indexOf('shlink:/');
  if (at < 0 || (at > 0 && trimmed[at - 1] !== '#')) throw new DigitalCardFailure('Not a SMART Health Link: it does not start with shlink:/ (or a viewer address ending #shlink:/…).');
  const encoded = trimmed.slice(at + 'shlink:/'.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) throw new DigitalCardFailure('The SMART Health Link is damaged: after shlink:/ it must be base64url. Scan it again.');
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new DigitalCardFailure('The SMART Health Link is damaged or cut short (its content is not JSON): scan it again.');
  }
  if (typeof body !== 'object' || body === null) throw new DigitalCardFailure('The SMART Health Link holds no link.');
  if (typeof body.url !== 'string' || !body.url) throw new DigitalCardFailure('The SMART Health Link has no url.');
  const key = typeof body.key === 'string' && /^[A-Za-z0-9_-]{43}$/.test(body.key) ? Buffer.from(body.key, 'base64url') : null;
  if (!key || key.length !== 32) throw new DigitalCardFailure('The SMART Health Link has no valid key (43 base64url characters): it cannot be decrypted.');
  const flag = body.flag === undefined ? '' : body.flag;
  if (typeof flag !== 'string' || !/^[LPU]*$/.test(flag)) throw new DigitalCardFailure(`The SMART Health Link's flag ${JSON.stringify(flag)} is not made of L, P and U.`);
  if (flag.includes('U') && flag.includes('P')) throw new DigitalCardFailure('The SMART Health Link is flagged both U (direct file) and P (passcode), which the specification does not allow.');
  if (body.exp !== undefined && typeof body.exp !== 'number') throw new DigitalCardFailure('The SMART Health Link\'s expiry (exp) is not a time.');
  return {
    url: body.url,
    key,
    exp: body.exp as number | undefined,
    flag,
    label: typeof body.label === 'string' ? body.label.slice(0, 80) : undefined,
    v: typeof body.v === 'number' ? body.v : undefined,
  };
}

export function expiredReason(link: ShLink, clock: Clock): string | null {
  if (link.exp === undefined || link.exp * 1000 > clock.now().getTime()) return null;
  return `The SMART Health Link expired on ${new Date(link.exp * 1000).toISOString().slice(0, 10)}: ask the patient to share a new link.`;
}

/** JWE compact with `alg: dir`, `enc: A256GCM`: the protected header is the additional data. */
export function decryptJwe(jwe: string, key: Buffer): string {
  const parts = jwe.trim().split('.');
  const failed = (why: string) => new DigitalCardFailure(`A file of the SMART Health Link could not be decrypted with the link's key (${why}): the link is damaged or not this file's.`);
  if (parts.length !== 5) throw failed(`it has ${parts.length} parts, a JWE has 5`);
  const [protectedHeader, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(protectedHeader, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw failed('its header is not JSON');
  }
  if (header.alg !== 'dir' || header.enc !== 'A256GCM') throw failed(`it is ${String(header.alg)} + ${String(header.enc)}, not dir + A256GCM`);
  if (encryptedKey !== '') throw failed('a dir JWE carries no encrypted key');
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(protectedHeader, 'ascii'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
  } catch {
    throw failed('the key does not open it');
  }
  if (header.zip === 'DEF') {
    try {
      plain = inflateRawSync(plain, { maxOutputLength: MAX_INFLATED_BYTES * 20 });
    } catch {
      throw failed('its compressed content is damaged or too large');
    }
  }
  return plain.toString('utf8');
}

function jsonOf(body: Buffer, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new DigitalCardFailure(`The ${what} is not JSON.`);
}

/** The manifest's answer to a POST: a 401 is a wrong (or missing) passcode with the attempts left. */
async function postManifest(deps: ShLinkDeps, link: ShLink): Promise<Record<string, unknown>> {
  const passcodeFlag = link.flag.includes('P');
  let passcode: string | undefined;
  let remaining: number | null = null;
  for (let attempt = 0; ; attempt++) {
    if (passcodeFlag) {
      if (!deps.askPasscode) throw new PasscodeNeeded();
      const given = await deps.askPasscode({ label: link.label ?? null, remainingAttempts: remaining, wrong: attempt > 0 });
      if (given === null || given === '') throw new DigitalCardFailure('The SMART Health Link needs its passcode and none was given: scan it again to enter it.');
      passcode = given;
    }
    const network = { ...deps.network, maxBytes: Math.min(deps.network.maxBytes, MAX_MANIFEST_BYTES) };
    const res = await guardedFetch(network, link.url, { method: 'POST', what: "link's manifest", json: { recipient: deps.recipient, ...(passcode !== undefined ? { passcode } : {}) } });
    if (res.status === 401 && passcodeFlag) {
      const body = (() => {
        try {
          return JSON.parse(res.body.toString('utf8')) as { remainingAttempts?: unknown };
        } catch {
          return {};
        }
      })();
      remaining = typeof body.remainingAttempts === 'number' ? body.remainingAttempts : null;
      if (attempt + 1 >= PASSCODE_TRIES || remaining === 0) {
        throw new DigitalCardFailure(`The passcode was wrong ${attempt + 1} times: the link is locked. Ask the patient to share a new link.`);
      }
      continue;
    }
    if (res.status === 404) throw new DigitalCardFailure('The SMART Health Link is no longer active (withdrawn, expired or locked): ask the patient to share a new link.');
    if (res.status !== 200) throw new DigitalCardFailure(`The link's server answered ${res.status} to the manifest request: try again later.`);
    return jsonOf(res.body, "link's manifest");
  }
}

/** Every file the link carries, decrypted. Only the manifest and the files it lists are fetched. */
export async function fetchShlinkFiles(deps: ShLinkDeps, link: ShLink): Promise<ShLinkFile[]> {
  const fileNetwork = { ...deps.network, maxBytes: Math.min(deps.network.maxBytes, MAX_FILE_BYTES) };
  if (link.flag.includes('U')) {
    const url = new URL(link.url);
    url.searchParams.set('recipient', deps.recipient);
    const res = await guardedFetch(fileNetwork, url.href, { what: "link's file" });
    if (res.status === 404) throw new DigitalCardFailure('The SMART Health Link is no longer active (withdrawn or expired): ask the patient to share a new link.');
    if (res.status !== 200) throw new DigitalCardFailure(`The link's server answered ${res.status} for its file: try again later.`);
    return [{ contentType: 'application/smart-health-card', content: decryptJwe(res.body.toString('utf8'), link.key) }].map(withType);
  }
  const manifest = await postManifest(deps, link);
  const files = Array.isArray(manifest.files) ? manifest.files : null;
  if (!files) throw new DigitalCardFailure("The link's manifest lists no files.");
  if (files.length > MAX_FILES) throw new DigitalCardFailure(`The link's manifest lists ${files.length} files, more than a digital card has (${MAX_FILES}).`);
  const out: ShLinkFile[] = [];
  for (const entry of files as Record<string, unknown>[]) {
    const contentType = typeof entry?.contentType === 'string' ? entry.contentType : '';
    let jwe: string;
    if (typeof entry.embedded === 'string') jwe = entry.embedded;
    else if (typeof entry.location === 'string') {
      const res = await guardedFetch(fileNetwork, entry.location, { what: "link's file" });
      if (res.status !== 200) throw new DigitalCardFailure(`The link's server answered ${res.status} for one of its files: try again later.`);
      jwe = res.body.toString('utf8');
    } else throw new DigitalCardFailure("A file in the link's manifest has neither content nor location.");
    out.push({ contentType, content: decryptJwe(jwe, link.key) });
  }
  return out;
}

/** A file fetched directly (flag U) says nothing of its type: a SMART Health Card file starts with verifiableCredential. */
function withType(file: ShLinkFile): ShLinkFile {
  return file.content.includes('"verifiableCredential"') ? file : { ...file, contentType: 'application/fhir+json' };
}
