import http from 'node:http';
import https from 'node:https';

/** A whole answer: its status, its headers and its body, read to the end. */
export interface UpstreamAnswer {
  status: number;
  header(name: string): string | null;
  body: Buffer;
}

/**
 * The most an answer may hold: a photo (10 MiB) or a page of records with room to spare. An
 * upstream sending more is broken or hostile, and the desk does not buffer it.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

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
 * the way); `timeoutMs` bounds each request from sending to its body's last byte.
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
  // Idle connections are unreferenced by the agent: they never keep the process alive.
  const agent = new client.Agent({ keepAlive: true });
  const basePath = base.pathname.replace(/\/+$/, '');

  return ({ method, path, headers, body }) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      let answered = false;
      let settled = false;
      const fail = (stage: UpstreamTransportError['stage'] = answered ? 'response' : 'request') => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new UpstreamTransportError(stage));
      };
      const request = client.request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
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
          response.on('error', () => fail());
          response.on('end', () => {
            // A connection that closed before the declared length is a broken answer, not a short one.
            if (settled || !response.complete) return fail();
            settled = true;
            clearTimeout(timer);
            resolve({
              status: response.statusCode ?? 0,
              header: (name) => {
                const value = response.headers[name.toLowerCase()];
                return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
              },
              body: Buffer.concat(chunks),
            });
          });
        },
      );
      const timer = setTimeout(() => request.destroy(), timeoutMs);
      request.on('error', () => fail());
      // Destroyed by the timer, or closed before the answer ended: not every such close emits 'error'.
      request.on('close', () => setImmediate(() => fail()));
      request.end(body);
    });
}
