/** Saved snippets (FL 297; editing FL 368). */
import * as z from 'zod';
import { int } from './envelope.js';

export const savedSnippet = z.object({
  id: int,
  title: z.string(),
  content: z.string(),
  date_created: int,
});
export type SavedSnippet = z.output<typeof savedSnippet>;
