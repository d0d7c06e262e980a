/**
 * The roles an account can have. Alone in this file so the console can use them without pulling
 * in the account events, which seal personal data with node:crypto.
 */
export const roles = ['member', 'partner', 'admin'] as const;
export type Role = (typeof roles)[number];
