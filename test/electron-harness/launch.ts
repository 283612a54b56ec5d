/**
 * Run the BUILT Electron main process (out/main/index.js, as `npm run build` makes it) in this Node
 * process with the stand-in `electron` (stand-in.ts) over a Playwright browser:
 *
 *   const app = await launchElectronApp({ browser, userData });
 *   const page = await app.firstWindowPage();    // the BrowserWindow's page, preload and all
 *   ...
 *   await app.quit();                              // Electron's quit: the engine closes first
 *
 * `electron` is resolved to the stand-in by a Node module hook registered in this process
 * (hooks.mjs); the product code is the bundle as built. One app runs at a time per process.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { electronForRequire } from './require-electron.js';
import { createStandIn, type StandIn, type StandInWindowType } from './stand-in.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const KEY = Symbol.for('zulip-offline.electron-harness');
let hooked = false;
let launches = 0;

export interface ElectronApp {
  readonly standIn: StandIn;
  readonly records: StandIn['records'];
  readonly context: BrowserContext;
  /** The app's (first) window, once it exists. */
  firstWindow(): Promise<StandInWindowType>;
  /** That window's page, loaded. */
  firstWindowPage(): Promise<Page>;
  /** Quit as the user would (app.quit()); resolves when the app has quit (the engine closed). */
  quit(timeoutMs?: number): Promise<void>;
  /** Everything main logged (console.warn / error / info while it runs). */
  logs(): string[];
}

async function until<T>(f: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function launchElectronApp(opts: { browser: Browser; userData: string; platform?: NodeJS.Platform }): Promise<ElectronApp> {
  const bundle = path.join(ROOT, 'out', 'main', 'index.js');
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build first`);
  if ((globalThis as Record<symbol, unknown>)[KEY]) throw new Error('an Electron harness app is still running in this process');
  if (!hooked) {
    register(pathToFileURL(path.join(import.meta.dirname, 'hooks.mjs')), { data: { target: pathToFileURL(path.join(import.meta.dirname, 'electron.mjs')).href } });
    electronForRequire();
    hooked = true;
  }
  mkdirSync(opts.userData, { recursive: true });
  const logs: string[] = [];
  const keep = (...a: unknown[]) => {
    logs.push(a.map(String).join(' '));
    if (process.env['HARNESS_DEBUG']) process.stderr.write(`${a.map(String).join(' ')}\n`);
  };
  const context = await opts.browser.newContext();
  const standIn = createStandIn({ context, appPath: ROOT, userData: opts.userData, log: (l) => keep(`harness: ${l}`), ...(opts.platform ? { platform: opts.platform } : {}) });
  await standIn.install();
  (globalThis as Record<symbol, unknown>)[KEY] = standIn.module;
  // main (and the engine in it) logs to the console; keep it for the report instead of the test's output.
  const { warn, error, info } = console;
  console.warn = keep;
  console.error = keep;
  console.info = keep;
  const restore = () => {
    console.warn = warn;
    console.error = error;
    console.info = info;
    delete (globalThis as Record<symbol, unknown>)[KEY];
  };
  try {
    // A fresh evaluation of the entry per launch: it starts the app on import, as Electron runs it.
    await import(`${pathToFileURL(bundle).href}?launch=${++launches}`);
    standIn.app.becomeReady();
  } catch (e) {
    restore();
    throw e;
  }
  let released = false;
  const firstWindow = () => until(() => standIn.windows()[0], 'the first window');
  return {
    standIn,
    records: standIn.records,
    context,
    firstWindow,
    async firstWindowPage() {
      const page = await (await firstWindow()).ready;
      await until(() => (page.url().startsWith('file:') ? true : undefined), 'the window to load the renderer');
      await page.waitForLoadState('load');
      return page;
    },
    /** Idempotent: after the app quit (from its tray, say) it only releases the harness. */
    async quit(timeoutMs = 15_000) {
      if (released) return;
      try {
        standIn.app.quit();
        await until(() => (standIn.app.quitted ? true : undefined), 'the app to quit', timeoutMs);
      } finally {
        released = true;
        restore();
        await context.close();
      }
    },
    logs: () => logs,
  };
}
