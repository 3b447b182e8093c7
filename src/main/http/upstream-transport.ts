import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';

/** A whole answer: its status, its headers and its body, read to the end. */
export interface UpstreamAnswer {
  status: number;
  /** A 2xx status. */
  ok: boolean;
  header(name: string): string | null;
  body: Buffer;
  /** The body as JSON (UTF-8; a byte-order mark in front allowed, as fetch's `json()` allowed it); throws if it is not. */
  json(): unknown;
}

/**
 * The most an answer may hold: a photo (10 MiB) or a page of records with room to spare. An
 * upstream sending more is broken or hostile, and the desk does not buffer it.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** How long a kept-alive connection may sit idle (fetch's own default). */
const IDLE_CONNECTION_MS = 4_000;

const STAGE_MESSAGES = {
  request: 'The upstream service could not be reached.',
  response: 'The upstream service stopped answering mid-response.',
  too_large: `The upstream service answered with more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; nothing of it was kept.`,
} as const;

/** Why no whole answer came: nothing answered in time, the answer broke off, or it was too large. */
export class UpstreamTransportError extends Error {
  constructor(readonly stage: keyof typeof STAGE_MESSAGES) {
    super(STAGE_MESSAGES[stage]);
    this.name = 'UpstreamTransportError';
  }
}

export interface UpstreamRequest {
  method: string;
  /** Below the base URL's own path, with its query. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export type UpstreamTransport = (request: UpstreamRequest) => Promise<UpstreamAnswer>;

/**
 * HTTP/1.1 to one upstream over node:http (https for an https URL, certificates checked),
 * keeping connections alive between requests. Not fetch: the sync worker sends thousands
 * of small requests, and fetch spent about a third of its thread on web streams, abort
 * signals and header lists. Redirects are not followed (a POST must not turn into a GET on
 * the way, nor patient data go to an address nobody entered); `timeoutMs` bounds each
 * request, a retry on a fresh connection included, from sending to its body's last byte.
 */
export function createUpstreamTransport(baseUrl: string, timeoutMs: number, maxAnswerBytes = MAX_ANSWER_BYTES): UpstreamTransport {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    // A URL that is not one reaches nothing, as an unreachable host does (Settings says why).
    return () => Promise.reject(new UpstreamTransportError('request'));
  }
  const client = base.protocol === 'https:' ? https : http;
  // urlToHttpOptions unwraps an IPv6 host ("[::1]" is not a name to look up).
  const { protocol, hostname, port } = urlToHttpOptions(base);
  // Idle connections are unreferenced (they never keep the process alive) and closed after
  // a few seconds, before servers that do not announce their own idle limit drop them.
  const agent = new client.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
  const basePath = base.pathname.replace(/\/+$/, '');

  return ({ method, path, headers, body }) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      let settled = false;
      let timedOut = false;
      let current: http.ClientRequest | undefined;
      const timer = setTimeout(() => {
        timedOut = true;
        current?.destroy();
      }, timeoutMs);
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };

      const send = (mayRetry: boolean) => {
        let answered = false;
        let retried = false;
        const fail = (stage: UpstreamTransportError['stage'] = answered ? 'response' : 'request') => {
          if (settled || retried) return;
          // A kept-alive connection the server closed while it sat idle fails on reuse before
          // any answer: sent again once on a fresh connection (creates carry their key).
          if (stage === 'request' && mayRetry && !timedOut && request.reusedSocket) {
            retried = true;
            return send(false);
          }
          settle(() => reject(new UpstreamTransportError(stage)));
        };
        const request = client.request(
          {
            protocol,
            hostname,
            port,
            path: `${basePath}${path}`,
            method,
            agent,
            headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          },
          (response) => {
            answered = true;
            const chunks: Buffer[] = [];
            let received = 0;
            response.on('data', (chunk: Buffer) => {
              received += chunk.length;
              if (received <= maxAnswerBytes) return void chunks.push(chunk);
              fail('too_large');
              request.destroy();
            });
            // A connection that closes before the declared length ends the answer with an error.
            response.on('error', () => fail());
            response.on('end', () => {
              const whole = Buffer.concat(chunks);
              const status = response.statusCode ?? 0;
              settle(() =>
                resolve({
                  status,
                  ok: status >= 200 && status < 300,
                  header: (name) => {
                    const value = response.headers[name.toLowerCase()];
                    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
                  },
                  body: whole,
                  json: () => {
                    const text = whole.toString('utf8');
                    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
                  },
                }),
              );
            });
          },
        );
        current = request;
        request.on('error', () => fail());
        // Destroyed by the timer, or closed before the answer ended: not every such close emits 'error'.
        request.on('close', () => setImmediate(() => fail()));
        request.end(body);
      };
      try {
        send(true);
      } catch {
        // Refused before anything was sent (a header with characters HTTP cannot carry).
        settle(() => reject(new UpstreamTransportError('request')));
      }
    });
}
