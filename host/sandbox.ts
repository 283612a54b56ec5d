/**
 * The embedded sandbox: the reference server, in this process, on a loopback port, with the demo
 * realm in `<dataDir>/sandbox-server.sqlite`. Both hosts hand it to the engine service, which opens
 * the demo account with the credentials `start` returns.
 *
 * The server seeds the demo realm only into an empty database, so every later start finds the same
 * realm (and whatever the user posted) in the file. The last port is tried first (the service
 * remembers it) so the realm URL, and the account cache keyed by it, stay stable across restarts.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Clock } from '../server/clock.js';
import { startServer, type RunningServer } from '../server/index.js';
import type { SandboxCredentials, SandboxLauncher } from '../sync/service/ports.js';

export const DEFAULT_SANDBOX_USER = 'desdemona@example.com';
export const SANDBOX_DB_FILE = 'sandbox-server.sqlite';

export interface EmbeddedSandboxOptions {
  readonly dataDir: string;
  /** The demo user the app signs in as. */
  readonly user?: string;
  /** The sandbox server's clock (tests move it; the system clock otherwise). */
  readonly clock?: Clock;
}

export class EmbeddedSandbox implements SandboxLauncher {
  private running: Promise<{ server: RunningServer; creds: SandboxCredentials }> | undefined;
  private current: RunningServer | undefined;
  private readonly user: string;

  constructor(private readonly opts: EmbeddedSandboxOptions) {
    this.user = opts.user ?? DEFAULT_SANDBOX_USER;
  }

  /** The running server's base URL (`http://127.0.0.1:PORT`), if started. */
  get url(): string | undefined {
    return this.current?.url;
  }

  start(preferredPort: number | null): Promise<SandboxCredentials> {
    // Concurrent starts share one server; a failed start lets the next call try again.
    this.running ??= this.launch(preferredPort).catch((e: unknown) => {
      this.running = undefined;
      throw e;
    });
    return this.running.then((r) => r.creds);
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    const r = await running.catch(() => undefined);
    if (r && this.current === r.server) this.current = undefined;
    await r?.server.close();
  }

  private async launch(preferredPort: number | null): Promise<{ server: RunningServer; creds: SandboxCredentials }> {
    mkdirSync(this.opts.dataDir, { recursive: true, mode: 0o700 });
    const dataPath = path.join(this.opts.dataDir, SANDBOX_DB_FILE);
    const start = (port: number) => startServer({ port, host: '127.0.0.1', dataPath, demo: true, ...(this.opts.clock ? { clock: this.opts.clock } : {}) });
    let server: RunningServer;
    // Probe first: startServer opens the database before it listens and keeps it open if the
    // listen fails, so a busy port is found out here rather than by a failed start.
    if (preferredPort !== null && preferredPort > 0 && (await portIsFree(preferredPort))) {
      try {
        server = await start(preferredPort);
      } catch (e) {
        // Taken between the probe and the listen: any free port will do.
        if (!isAddressInUse(e)) throw e;
        server = await start(0);
      }
    } else {
      server = await start(0);
    }
    let apiKey: string;
    try {
      apiKey = server.apiKey(this.user);
    } catch (e) {
      await server.close();
      throw e;
    }
    this.current = server;
    return { server, creds: { realmUrl: server.url, email: this.user, apiKey, port: server.port } };
  }
}

function isAddressInUse(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'code' in e && e.code === 'EADDRINUSE';
}

/** Whether 127.0.0.1:port can be bound right now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
