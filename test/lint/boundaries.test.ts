/** The architecture's import boundaries, checked through the project's real ESLint config. */
import { describe } from 'vitest';
import { lintCases, type LintCase } from './lint-cases.js';


describe('lint boundaries', () => {
  const cases: LintCase[] = [
    ['sync/ may not import electron', 'sync/engine/x.ts', "import { app } from 'electron'; export const a = app;", false],
    ['sync/ may not import renderer/', 'sync/engine/x.ts', "import { A } from '../../renderer/src/App.js'; export const a = A;", false],
    ['sync/ may not use DOM globals', 'sync/engine/x.ts', 'export const w = document.title;', false],
    ['sync/api may not import sync/db', 'sync/api/routes/x.ts', "import { db } from '../../db/open.js'; export const a = db;", false],
    ['sync/api may import its own core', 'sync/api/routes/x.ts', "import { ApiConnection } from '../core.js'; export const a = ApiConnection;", true],
    ['sync/api may import zod and undici', 'sync/api/x.ts', "import * as z from 'zod'; import { Agent } from 'undici'; export const a = [z, Agent];", true],
    ['sync layers: outbox may not import engine (a backward import)', 'sync/outbox/x.ts', "import { S } from '../engine/session.js'; export const a = S;", false],
    ['sync layers: db may not import outbox', 'sync/db/queries/x.ts', "import { o } from '../../outbox/store.js'; export const a = o;", false],
    ['sync layers: db may not import uploads (same rank, another folder)', 'sync/db/x.ts', "import { u } from '../uploads/cache.js'; export const a = u;", false],
    ['sync layers: base may not import db', 'sync/base/x.ts', "import { d } from '../db/open.js'; export const a = d;", false],
    ['sync layers: engine may import outbox, db and base', 'sync/engine/x.ts', "import { o } from '../outbox/store.js'; import { d } from '../db/open.js'; import { b } from '../base/seams.js'; export const a = [o, d, b];", true],
    ['sync layers: service may import engine', 'sync/service/x.ts', "import { S } from '../engine/session.js'; export const a = S;", true],
    ['sync/protocol may not import node builtins', 'sync/protocol/x.ts', "import fs from 'node:fs'; export const a = fs;", false],
    ['renderer may import sync/protocol', 'renderer/src/x.ts', "import { p } from '../../sync/protocol/index.js'; export const a = p;", true],
    ['renderer may not import sync/engine', 'renderer/src/x.ts', "import { e } from '../../sync/engine/index.js'; export const a = e;", false],
    ['renderer may import types only from sync/outbox/registry', 'renderer/src/x.ts', "import type { QueuedCommands } from '../../sync/outbox/registry.js'; export type A = QueuedCommands;", true],
    ['renderer may not import values from sync/outbox/registry', 'renderer/src/x.ts', "import { QUEUED_COMMANDS } from '../../sync/outbox/registry.js'; export const a = QUEUED_COMMANDS;", false],
    ['renderer may not import inline types from sync/outbox/registry (the import itself stays)', 'renderer/src/x.ts', "import { type QueuedCommands } from '../../sync/outbox/registry.js'; export type A = QueuedCommands;", false],
    ['renderer may not import types from another engine module', 'renderer/src/x.ts', "import type { OutboxKind } from '../../sync/outbox/kinds.js'; export type A = OutboxKind<1, 2>;", false],
    ['renderer may not import node builtins', 'renderer/src/x.ts', "import fs from 'node:fs'; export const a = fs;", false],
    ['server may not import sync/', 'server/x.ts', "import { ApiConnection } from '../sync/api/core.js'; export const a = ApiConnection;", false],
    ['main may import sync/', 'main/x.ts', "import { ApiConnection } from '../sync/api/core.js'; export const a = ApiConnection;", true],
    ['main may not import renderer/', 'main/x.ts', "import { A } from '../renderer/src/App.js'; export const a = A;", false],
    ['main may not import server/ (the sandbox comes through host/)', 'main/x.ts', "import { s } from '../server/index.js'; export const a = s;", false],
    ['main may import host/', 'main/x.ts', "import { h } from '../host/sandbox.js'; export const a = h;", true],
    ['host may import server/ and sync/', 'host/x.ts', "import { s } from '../server/index.js'; import { e } from '../sync/service/index.js'; export const a = [s, e];", true],
    ['host may not import electron', 'host/x.ts', "import { app } from 'electron'; export const a = app;", false],
    ['host may not import renderer/', 'host/x.ts', "import { A } from '../renderer/src/App.js'; export const a = A;", false],
    ['common may import common', 'common/x.ts', "import { topicKey } from './topic-key.js'; export const a = topicKey;", true],
    ['common may not import a package', 'common/x.ts', "import * as z from 'zod'; export const a = z;", false],
    ['common may not import node builtins', 'common/x.ts', "import fs from 'node:fs'; export const a = fs;", false],
    ['common may not import sync/', 'common/x.ts', "import { FLAG } from '../sync/db/flags.js'; export const a = FLAG;", false],
    ['common may not import server/', 'common/x.ts', "import { sql } from '../server/db/statements.js'; export const a = sql;", false],
    ['sync/api may import common', 'sync/api/x.ts', "import { topicKey } from '../../common/topic-key.js'; export const a = topicKey;", true],
    ['sync/protocol may import common', 'sync/protocol/x.ts', "import { topicKey } from '../../common/topic-key.js'; export const a = topicKey;", true],
    ['sync layers may import common', 'sync/db/x.ts', "import { topicKey } from '../../common/topic-key.js'; export const a = topicKey;", true],
    ['renderer may import common', 'renderer/src/x.ts', "import { topicKey } from '../../common/topic-key.js'; export const a = topicKey;", true],
    ['server may import common', 'server/model/x.ts', "import { topicKey } from '../../common/topic-key.js'; export const a = topicKey;", true],
    ['main may import common', 'main/x.ts', "import { topicKey } from '../common/topic-key.js'; export const a = topicKey;", true],
    ['host may import common', 'host/x.ts', "import { topicKey } from '../common/topic-key.js'; export const a = topicKey;", true],
  ];
  lintCases(cases, (m) => m.ruleId === 'local/boundaries' || m.ruleId === 'no-restricted-globals');
});
