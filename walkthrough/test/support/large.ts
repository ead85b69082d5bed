/**
 * The walkthrough that took 4 GB and crashed the renderer: 1,000,000 characters with 13,874
 * comments (every one a real query), built the way an agent would write it.
 */

/** How many comments the large walkthrough has. */
export const LARGE_COMMENT_COUNT = 13_874;
/** Its length in characters. */
export const LARGE_LENGTH = 1_000_000;

/** The large walkthrough: comments on `User` (ambiguous-free, real) padded to exactly {@link LARGE_LENGTH}. */
export function largeWalkthrough(): string {
  const unit = (i: number): string => `<comment location='findDefinition("User")'>Note ${i}.</comment>\n\n`;
  const parts = ['# A very long walkthrough\n\n'];
  for (let i = 1; i <= LARGE_COMMENT_COUNT; i++) parts.push(unit(i));
  const body = parts.join('');
  if (body.length > LARGE_LENGTH) throw new Error(`the comments alone take ${body.length} characters`);
  return `${body}${'x'.repeat(LARGE_LENGTH - body.length - 1)}\n`;
}
