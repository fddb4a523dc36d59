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
  /**
   * Present when an API key made the call (Authorization: Bearer pwk_…): `userId` is then the key's
   * service account, `sessionId` is empty, and the key's own request rate applies.
   */
  apiKey?: { id: string; rateLimitPerMinute: number };
}
