/** The app-wide router (history.ts): one per page, given to the screens through a context. */
import { storeContext } from '../data/store-context.js';
import { createRouter, type Router } from './history.js';

const ctx = storeContext<Router & { dispose(): void }>('Router', () => createRouter());
export const RouterProvider = ctx.Provider;
export const useRouter: () => Router = ctx.use;
