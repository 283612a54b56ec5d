/**
 * Loaded with NODE_OPTIONS=--import into the electron-builder process of the dir-build test (and
 * every Node child it starts): any TCP connection to a host other than loopback throws and is
 * reported on stderr with the marker below, so "the packaging step is offline" is checked, not
 * assumed. Sockets are the one path under http(s), fetch (undici) and @electron/get alike.
 */
import net from 'node:net';

export const MARKER = 'NO-NETWORK-GUARD: blocked connection to';
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect() passes its normalised [options, callback] array; users may pass (options),
  // (port, host) or (path).
  const [first, second] = args;
  const opts = Array.isArray(first)
    ? first[0]
    : first !== null && typeof first === 'object'
      ? first
      : typeof first === 'string' && Number.isNaN(Number(first))
        ? { path: first }
        : { port: first, host: typeof second === 'string' ? second : undefined };
  // A path is a Unix socket or named pipe (local by definition).
  if (opts.path == null) {
    const host = opts.host ?? 'localhost';
    if (!LOOPBACK.test(host)) {
      process.stderr.write(`${MARKER} ${host}:${opts.port}\n`);
      throw new Error(`${MARKER} ${host}:${opts.port}`);
    }
  }
  return connect.apply(this, args);
};
