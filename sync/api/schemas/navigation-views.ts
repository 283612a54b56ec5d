/** Navigation views (FL 390): spec "Navigation view", OpenAPI `NavigationView`. */
import * as z from 'zod';

/**
 * One view of the left sidebar, keyed by its URL-hash `fragment` (which may contain `/`).
 * `name` is null (or absent) for built-in views and set for custom ones.
 */
export const navigationView = z.lazy(() => z.object({
  fragment: z.string(),
  is_pinned: z.boolean(),
  name: z.string().nullable().default(null),
}));
export type NavigationView = z.output<typeof navigationView>;
