import type { Role } from '@pledgewatch/contract';

/**
 * Who is calling: always taken from the session, never from the request body. It lives here, below
 * both the auth plugin and the modules, so services depend on neither.
 */
export interface AuthContext {
  sessionId: string;
  userId: string;
  organisationId: string;
  role: Role;
  isStaff: boolean;
}
