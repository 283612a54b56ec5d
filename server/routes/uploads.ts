/** PLACEHOLDER: replaced by the area's implementation. */
import type { ApiRouter } from './context.js';

export function registerUploadRoutes(_r: ApiRouter): void {}
