import type { Role } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { assertPasswordAllowed } from '../../lib/password-policy.ts';
import { getUserByEmail, insertUser } from '../users/index.ts';

export async function createOrganisation(db: Queryable, name: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO organisations (name) VALUES ($1) RETURNING id',
    [name],
  );
  return rows[0]!.id;
}

export async function findOrganisationByName(db: Queryable, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM organisations WHERE name = $1 LIMIT 1', [
    name,
  ]);
  return rows[0]?.id;
}

/** Creates a user with a known password (CLI and demo data); e-mail is taken as verified. */
export async function createUserAccount(
  db: Queryable,
  user: {
    organisationId: string;
    email: string;
    fullName: string;
    role: Role;
    password: string;
    isStaff?: boolean;
  },
): Promise<string> {
  if (await getUserByEmail(db, user.email)) {
    throw new Error(`A user with e-mail ${user.email} already exists`);
  }
  assertPasswordAllowed(user.password, user, 'password');
  return insertUser(db, {
    organisationId: user.organisationId,
    email: user.email,
    fullName: user.fullName,
    role: user.role,
    passwordHash: await hashPassword(user.password),
    isStaff: user.isStaff,
    emailVerified: true,
  });
}
