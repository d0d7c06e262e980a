/** The roles an account can have. */
export const roles = ['member', 'partner', 'admin'] as const;
export type Role = (typeof roles)[number];
