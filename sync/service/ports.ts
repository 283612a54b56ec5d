/**
 * What a host plugs into the engine service: where API keys are kept (Electron `safeStorage`, or a
 * plain file the user agreed to) and how the embedded sandbox starts. Small interfaces, so the
 * service runs in tests with in-memory fakes.
 */
export interface SecretStore {
  /** `encrypted` when keys are encrypted at rest; `plain` when the platform offers no encryption. */
  readonly storage: 'encrypted' | 'plain';
  get(accountId: string): string | undefined;
  set(accountId: string, apiKey: string): void;
  delete(accountId: string): void;
}

export interface SandboxCredentials {
  readonly realmUrl: string;
  readonly email: string;
  readonly apiKey: string;
  /** The port it listens on, remembered so the next start tries it first. */
  readonly port: number;
}

export interface SandboxLauncher {
  /** Start the embedded server (or return the running one); `preferredPort` is tried first. */
  start(preferredPort: number | null): Promise<SandboxCredentials>;
  close(): Promise<void>;
}

/** An in-memory SecretStore for tests and for hosts without persistence. */
export class MemorySecretStore implements SecretStore {
  private readonly keys = new Map<string, string>();
  constructor(readonly storage: 'encrypted' | 'plain' = 'encrypted') {}
  get(id: string): string | undefined {
    return this.keys.get(id);
  }
  set(id: string, key: string): void {
    this.keys.set(id, key);
  }
  delete(id: string): void {
    this.keys.delete(id);
  }
}
