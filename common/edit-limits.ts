/**
 * Who the realm's editing time limits bind (spec, Limits: "The time limits do not bind
 * administrators and moderators"; owners are administrators too). The outbox's deadlines and the
 * engine's raw-text cache both decide by it.
 */

/** Roles as the server numbers them: owner 100, administrator 200, moderator 300, member 400, guest 600. */
export const MODERATOR_ROLE = 300;

/** Members, guests and any role the app does not know (a future one, an unknown user): refusing early beats failing late. */
export function boundByTimeLimits(role: unknown): boolean {
  return typeof role !== 'number' || role > MODERATOR_ROLE;
}
