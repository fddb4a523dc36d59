import type pg from 'pg';
import { withTransaction } from '../db/pool.ts';
import type { JobContext } from '../jobs/job-definition.ts';
import {
  createOrganisation,
  createUserAccount,
  findOrganisationByName,
} from '../modules/organisations/organisations.service.ts';
import { seedDemoDatasets } from './demo-datasets.ts';
import { seedDemoHistory } from './demo-history.ts';
import { seedDemoNews } from './demo-news.ts';
import { seedDemoPortfolio } from './demo-portfolio.ts';

export const DEMO_ORGANISATION = 'Демо-банк «Залоговый»';
export const DEMO_ACCOUNTS = [
  {
    email: 'admin@demo.pledgewatch.ru',
    password: 'demo-admin-2026',
    fullName: 'Анна Администраторова',
    role: 'admin',
  },
  {
    email: 'analyst@demo.pledgewatch.ru',
    password: 'demo-analyst-2026',
    fullName: 'Иван Аналитиков',
    role: 'analyst',
  },
] as const;

/**
 * Creates the demo organisation and its two accounts once; later starts leave it as it is. Given the
 * app's jobs context, the start that creates the organisation also gives it a month of history
 * (demo-history.ts). That history is made through the services, each in its own transactions, so it
 * runs after the organisation's transaction commits; a start that finds the organisation made adds
 * nothing, whether or not its history was finished.
 */
export async function seedDemo(
  db: pg.Pool,
  history?: Pick<JobContext, 'config' | 'queue' | 'mailer' | 'log'>,
): Promise<{ created: boolean; historySeconds: number | null }> {
  const seeded = await withTransaction(db, async (tx) => {
    // Serialises concurrent first starts (app and worker) so the demo is created once.
    await tx.query('SELECT pg_advisory_xact_lock(724611002)');
    if (await findOrganisationByName(tx, DEMO_ORGANISATION)) {
      return null;
    }
    const organisationId = await createOrganisation(tx, DEMO_ORGANISATION);
    for (const account of DEMO_ACCOUNTS) {
      await createUserAccount(tx, {
        organisationId,
        ...account,
        // The demo admin is also platform staff, so the mail outbox is visible in the demo.
        isStaff: account.role === 'admin',
      });
    }
    await seedDemoNews(tx, DEMO_ACCOUNTS[0].email);
    await seedDemoPortfolio(tx, organisationId);
    // Last: the demo datasets are built over the demo portfolio seeded above.
    await seedDemoDatasets(tx, organisationId);
    return organisationId;
  });
  if (!seeded) {
    return { created: false, historySeconds: null };
  }
  if (!history) {
    return { created: true, historySeconds: null };
  }
  const started = performance.now();
  try {
    await seedDemoHistory({ db, ...history }, seeded);
  } catch (error) {
    // The demo without (all of) its history still works: a failure here must not stop the start.
    history.log.error({ err: error }, 'the demo history could not be made');
    return { created: true, historySeconds: null };
  }
  return { created: true, historySeconds: (performance.now() - started) / 1000 };
}
