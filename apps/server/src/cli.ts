import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROLES, type Role } from '@pledgewatch/contract';
import { loadConfig } from './config/env.ts';
import { backupDatabase, restoreDatabase } from './db/backup/backup.ts';
import { BackupError } from './db/backup/backup-error.ts';
import { openDatabase } from './db/database.ts';
import { StartupError } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import { createPool } from './db/pool.ts';
import { findOutboxMails } from './modules/mail/index.ts';
import { createOrganisation, createUserAccount } from './modules/organisations/index.ts';

const USAGE = `Usage: npm run cli -- <command> [options]
  migrate                                   apply pending database migrations
  create-organisation --name "Банк"         prints the new organisation id
  create-user --organisation <id> --email <e-mail> --name "Имя" --password <password>
              [--role admin|analyst|viewer] [--staff]
  last-mail --email <e-mail>                prints the newest mail to the address, links included
                                            (the staff outbox view hides their tokens)
  backup --to <file>                        backs the database up, the app running or stopped
                                            (pg_dump with DATABASE_URL; the embedded data folder else)
  restore --from <file> [--force]           restores a backup; an existing database only with --force
                                            (docs/operations.md)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    organisation: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    role: { type: 'string', default: 'analyst' },
    staff: { type: 'boolean', default: false },
    to: { type: 'string' },
    from: { type: 'string' },
    force: { type: 'boolean', default: false },
  },
});

const command = positionals[0];
const COMMANDS = ['migrate', 'create-organisation', 'create-user', 'last-mail', 'backup', 'restore'];
if (!command || !COMMANDS.includes(command)) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfig();
if (command === 'backup' || command === 'restore') {
  // Neither opens the database as the other commands do: the embedded one may belong to a running app.
  const file = command === 'backup' ? values.to : values.from;
  if (!file) {
    console.error(command === 'backup' ? '--to <file> is required' : '--from <file> is required');
    process.exit(2);
  }
  const log = (line: string) => console.error(line);
  // npm runs scripts from the repository's root: the file is named from where the operator stands.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  try {
    if (command === 'backup') {
      await backupDatabase({ config, file: target, log });
      console.log(`Резервная копия записана: ${target}`);
    } else {
      await restoreDatabase({ config, file: target, force: values.force, log });
      console.log('База данных восстановлена. Запустите приложение: оно применит миграции своей версии');
    }
    process.exit(0);
  } catch (error) {
    console.error(error instanceof BackupError || error instanceof StartupError ? error.message : error);
    process.exit(1);
  }
}
const database = await openDatabase(config, (message) => console.error(message)).catch((error: unknown) => {
  // A problem the operator must fix (DATA_DIR permissions, a busy data folder) is one sentence.
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});
const pool = createPool(database.connectionString, 2);
let exitCode = 0;
try {
  const { applied } = await migrate(pool);
  if (command === 'migrate') {
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
  } else if (command === 'create-organisation') {
    if (!values.name) {
      throw new Error('--name is required');
    }
    console.log(await createOrganisation(pool, values.name));
  } else if (command === 'last-mail') {
    // Whoever runs the CLI already has the database; without SMTP this is how a local run follows a link.
    if (!values.email) {
      throw new Error('--email is required');
    }
    const mail = (await findOutboxMails(pool, { to: values.email, limit: 1, offset: 0 })).items[0];
    if (!mail) {
      throw new Error(`no mail to ${values.email}`);
    }
    console.log(`To: ${mail.to_address}\nSubject: ${mail.subject}\n\n${mail.text_body}`);
  } else {
    const { organisation, email, name, password, role, staff } = values;
    if (!organisation || !email || !name || !password) {
      throw new Error('--organisation, --email, --name and --password are required');
    }
    if (!ROLES.includes(role as Role)) {
      throw new Error(`--role must be one of ${ROLES.join(', ')}`);
    }
    const id = await createUserAccount(pool, {
      organisationId: organisation,
      email,
      fullName: name,
      role: role as Role,
      password,
      isStaff: staff,
    });
    console.log(id);
  }
} catch (error) {
  console.error((error as Error).message);
  exitCode = 1;
} finally {
  await pool.end();
  await database.stop();
}
process.exit(exitCode);
