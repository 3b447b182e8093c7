import http from 'node:http';

/** Where a /v1 server listens: loopback TCP (`http://127.0.0.1:P`) or a Unix socket / named pipe. */
export type HttpTarget = { baseUrl: string } | { socketPath: string };

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body as JSON, or undefined where it is not JSON. */
  // `any` on purpose: suites read arbitrary answers and assert their shape themselves.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- suites read arbitrary answers and assert their shape themselves
  json: any;
}

export interface HttpCall {
  method?: string;
  path: string;
  headers?: Record<string, string | undefined>;
  body?: string | Uint8Array;
}

/**
 * One real HTTP request with node:http, over TCP or a Unix socket alike (fetch cannot
 * reach a socket without undici's dispatcher). Headers set to undefined are not sent.
 */
export function httpRequest(target: HttpTarget, call: HttpCall): Promise<HttpAnswer> {
  const url = 'baseUrl' in target ? new URL(call.path, target.baseUrl) : null;
  const headers = Object.fromEntries(Object.entries(call.headers ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        method: call.method ?? 'GET',
        ...(url ? { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}` } : { socketPath: (target as { socketPath: string }).socketPath, path: call.path }),
        headers: { ...(url ? {} : { host: 'localhost' }), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    if (call.body !== undefined) request.write(call.body);
    request.end();
  });
}

/** A client bound to one target and key, for suites that make many calls. */
export function v1Caller(target: HttpTarget, apiKey: string) {
  return (method: string, path: string, body?: unknown, headers: Record<string, string | undefined> = {}) =>
    httpRequest(target, {
      method,
      path,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body !== undefined && !(body instanceof Uint8Array) ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : body instanceof Uint8Array ? body : typeof body === 'string' ? body : JSON.stringify(body),
    });
}
