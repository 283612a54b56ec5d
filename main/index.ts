/** Electron main process entry (out/main/index.js). Everything is wired in app.ts. */
import { startApp } from './app.js';

startApp(process.argv);
