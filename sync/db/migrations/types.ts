/** A schema migration: one version step, run in a transaction, never edited once landed. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** SQL, or a function for steps that need logic. */
  readonly up: string | ((db: import('better-sqlite3').Database) => void);
}
