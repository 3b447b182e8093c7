import http from 'node:http';
import type net from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** When it arrived. */
  at: number;
  /** What the client got: the proxy's scripted answer or the upstream's. */
  status: number;
}

/** A scripted answer in place of the upstream's, for requests a test picks (or the upstream's, held back `forwardAfterMs`). */
export type ProxyScript = (request: { method: string; path: string; idempotencyKey: string | undefined }) =>
  | { forwardAfterMs: number }
  | {
      status: number;
      headers?: Record<string, string>;
      body?: unknown;
      /** Forward it first (the upstream commits), then answer this instead: a lost answer. */
      commitFirst?: boolean;
    }
  | undefined;

/**
 * A real HTTP server on loopback between the host and the sandbox: it forwards every
 * request unchanged unless the script answers it, and records what passed. Tests use it
 * where the sandbox's random faults cannot say "exactly this request, exactly now".
 */
export async function startScriptedProxy(target: string): Promise<{ url: string; requests: ProxiedRequest[]; script: { current: ProxyScript }; close(): Promise<void> }> {
  const requests: ProxiedRequest[] = [];
  const script: { current: ProxyScript } = { current: () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const at = Date.now();
      const scripted = script.current({ method, path, idempotencyKey });
      const record = (status: number) => requests.push({ method, path, idempotencyKey, at, status });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      const forward = () => fetch(`${target}${path}`, { method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      if (scripted && 'forwardAfterMs' in scripted) {
        setTimeout(() => relay(), scripted.forwardAfterMs);
        return;
      }
      if (scripted) {
        const answer = () => {
          record(scripted.status);
          res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
          res.end(scripted.body === undefined ? '' : JSON.stringify(scripted.body));
        };
        if (scripted.commitFirst) void forward().then(async (r) => void (await r.arrayBuffer())).then(answer, answer);
        else answer();
        return;
      }
      relay();
      function relay(): void {
        forward()
          .then(async (answer) => {
            const body = Buffer.from(await answer.arrayBuffer());
            record(answer.status);
            const out: Record<string, string> = {};
            answer.headers.forEach((v, k) => {
              if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'content-encoding' && k !== 'connection') out[k] = v;
            });
            res.writeHead(answer.status, out);
            res.end(body);
          })
          .catch(() => res.destroy());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
