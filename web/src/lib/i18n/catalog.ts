import { EN_US } from './en-US';

/**
 * The live message catalogue: the shell's English texts, plus each screen area's, which its lazy chunk adds when
 * it loads (features/<area>/messages.ts) so they stay out of the sign-in route's bundle. react-intl reads the
 * catalogue at format time, and a chunk is evaluated before any of its screens renders.
 */
export const MESSAGES: Record<string, string> = { ...EN_US };

export function addMessages(messages: Record<string, string>): void {
  Object.assign(MESSAGES, messages);
}
