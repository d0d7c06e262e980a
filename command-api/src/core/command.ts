import type { Role } from '@portal/contracts/accounts/roles';

/** Who asks: from the verified session, never from the body. */
export interface Actor {
  id: string;
  role: Role;
}

/**
 * Who asks and when, by the server's clock: what every command carries besides its data, so a
 * decision never reads the clock or the request. `actor` is absent only where nobody is signed in
 * (a registration) or the portal itself acts (the first admin).
 */
export interface CommandMetadata {
  now: string;
  actor?: Actor;
}
/** The metadata of a command only a signed-in person may send. */
export type SignedInMetadata = Required<CommandMetadata>;

/** The one shape of every area's commands (Emmett's): a type, its data, and who and when. */
export interface Command<Type extends string, Data = Record<string, never>, Metadata = SignedInMetadata> {
  type: Type;
  data: Data;
  metadata: Metadata;
}
