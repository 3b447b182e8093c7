// Preloaded with `node --require` (Node also runs it in every worker thread): any
// connection or name lookup that is not loopback throws and is written to the file named
// by NO_NETWORK_REPORT, so a test can prove a process fetched nothing.
const dns = require('node:dns');
const fs = require('node:fs');
const net = require('node:net');
const { isMainThread } = require('node:worker_threads');

const report = process.env.NO_NETWORK_REPORT;
const where = isMainThread ? 'main thread' : 'worker thread';

/** Records the attempt and returns the error it fails with, as a real outage would. */
function blocked(what) {
  if (report) fs.appendFileSync(report, `${where}: ${what}\n`);
  const error = new Error(`network access blocked by the test (${what})`);
  error.code = 'ENETUNREACH';
  return error;
}

function isLoopback(host) {
  return host === undefined || host === null || host === '' || host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '[::1]';
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  // net.connect passes its normalised [options, callback] as the first argument.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = typeof first === 'object' && first !== null ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (options.path === undefined && !isLoopback(options.host)) {
    const error = blocked(`connect ${options.host}:${options.port}`);
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};

for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  const original = dns[name];
  dns[name] = function (host, ...rest) {
    if (!isLoopback(host)) {
      const error = blocked(`dns ${host}`);
      const callback = rest.find((arg) => typeof arg === 'function');
      if (callback) process.nextTick(() => callback(error));
      return undefined;
    }
    return original.call(this, host, ...rest);
  };
}
const lookupPromise = dns.promises.lookup;
dns.promises.lookup = function (host, ...rest) {
  if (!isLoopback(host)) return Promise.reject(blocked(`dns ${host}`));
  return lookupPromise.call(this, host, ...rest);
};

if (typeof globalThis.fetch === 'function') {
  const fetch = globalThis.fetch;
  globalThis.fetch = function (input, init) {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (!isLoopback(url.hostname)) return Promise.reject(blocked(`fetch ${url.origin}`));
    return fetch.call(this, input, init);
  };
}
