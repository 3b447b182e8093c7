import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { DigitalCardFailure } from './digital-card-failure';

/**
 * The only way the digital-card code reaches the network: `https` only, to public
 * addresses only (the host is resolved and every address checked, and the connection is
 * made to the address checked, so a name cannot be re-pointed at the desk's own network
 * between the check and the connect), no redirects, a size and a time limit. A link in a
 * patient's QR code is untrusted input: without this it could make the desk call its own
 * router, the practice's servers or the local API.
 */

export interface NetworkPolicy {
  /** Whole-request limit (connect, answer, body), in ms. */
  timeoutMs: number;
  /** The largest body read, in bytes; more refuses the answer. */
  maxBytes: number;
  /**
   * Test-only: one exact origin (`http://127.0.0.1:PORT`) let through although it is http
   * and loopback, for the local test server. Never set by the app.
   */
  allowOrigin?: string;
  /** Injected in tests to resolve names to chosen addresses; DNS otherwise. */
  lookup?: (host: string) => Promise<LookupAddress[]>;
}

export const DEFAULT_NETWORK_POLICY: NetworkPolicy = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 };

/** The network could not be reached at all: the caller keeps the link and tries again when online. */
export class OfflineFailure extends Error {
  constructor(readonly code: string) {
    super(`The network is not reachable (${code}).`);
    this.name = 'OfflineFailure';
  }
}

const OFFLINE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'ECONNRESET', 'ETIMEDOUT']);

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

/** Loopback, private, link-local, carrier-grade NAT, multicast, documentation and reserved ranges (and IPv4 mapped into IPv6). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function systemLookup(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface GuardedRequest {
  method?: 'GET' | 'POST';
  json?: unknown;
  /** What is being fetched, in the desk's words, for the reasons ("the link's manifest"). */
  what: string;
  maxBytes?: number;
}

/** Checks the address before any connection: the reason says which rule refused it. */
async function addressFor(policy: NetworkPolicy, url: URL, what: string): Promise<LookupAddress | null> {
  if (policy.allowOrigin !== undefined && url.origin === policy.allowOrigin) return null;
  if (url.protocol !== 'https:') throw new DigitalCardFailure(`The ${what} is at a ${url.protocol.replace(':', '')} address; only https links are followed.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (policy.lookup ?? systemLookup)(host);
    } catch (error) {
      throw new OfflineFailure((error as NodeJS.ErrnoException).code ?? 'ENOTFOUND');
    }
  }
  if (addresses.length === 0) throw new OfflineFailure('ENOTFOUND');
  if (addresses.some((entry) => isPrivateAddress(entry.address))) {
    throw new DigitalCardFailure(`The ${what} points at a private or local network address (${host}); only public https addresses are followed.`);
  }
  return addresses[0];
}

export async function guardedFetch(policy: NetworkPolicy, target: string, request: GuardedRequest): Promise<GuardedResponse> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new DigitalCardFailure(`The ${request.what} address is not a URL.`);
  }
  if (url.username || url.password) throw new DigitalCardFailure(`The ${request.what} address carries a user name or password; it is not followed.`);
  const pinned = await addressFor(policy, url, request.what);
  const maxBytes = request.maxBytes ?? policy.maxBytes;
  const body = request.json === undefined ? undefined : Buffer.from(JSON.stringify(request.json));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<GuardedResponse>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, value?: GuardedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value!);
    };
    const req = transport.request(
      url,
      {
        method: request.method ?? 'GET',
        headers: { accept: 'application/json, application/jose, */*', ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}) },
        // The connection goes to the address checked above, never to a second resolution.
        ...(pinned
          ? {
              lookup: ((_host, options, callback) =>
                (options as { all?: boolean }).all
                  ? (callback as (error: null, addresses: LookupAddress[]) => void)(null, [pinned])
                  : callback(null, pinned.address, pinned.family)) satisfies LookupFunction,
            }
          : {}),
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          finish(new DigitalCardFailure(`The ${request.what} answered with a redirect elsewhere; only the link's own manifest and files are fetched.`));
          req.destroy();
          return;
        }
        const declared = Number(res.headers['content-length']);
        const tooLarge = () => new DigitalCardFailure(`The ${request.what} is larger than ${Math.round(maxBytes / 1024)} KB: it was not read.`);
        if (Number.isFinite(declared) && declared > maxBytes) {
          finish(tooLarge());
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            finish(tooLarge());
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => finish(null, { status, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (error) => finish(error));
      },
    );
    const timer = setTimeout(() => {
      finish(new DigitalCardFailure(`The ${request.what} took longer than ${Number((policy.timeoutMs / 1000).toFixed(1))} s to arrive: try again later.`));
      req.destroy();
    }, policy.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish(OFFLINE_CODES.has(error.code ?? '') ? new OfflineFailure(error.code!) : new DigitalCardFailure(`The ${request.what} could not be fetched (${error.code ?? 'network error'}).`)));
    req.end(body);
  });
}
