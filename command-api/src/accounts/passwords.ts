import argon2 from 'argon2';

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

let decoy: Promise<string> | undefined;

/**
 * Checks a password against a hash, or against a decoy when there is no account, so an unknown
 * user takes as long to refuse as a wrong password.
 */
export async function passwordMatches(hash: string | undefined, password: string): Promise<boolean> {
  decoy ??= hashPassword('decoy password that matches nothing');
  const matches = await argon2.verify(hash ?? (await decoy), password);
  return hash !== undefined && matches;
}
