import { VIN_MAKERS, validateDocument, validateVin } from '@pledgewatch/identifiers';
import { describe, expect, it } from 'vitest';
import { createOrganisation } from '../modules/organisations/organisations.service.ts';
import { buildTestApp } from '../testing/test-app.ts';
import { generateDemoPortfolio, seedDemoPortfolio } from './demo-portfolio.ts';

describe('demo portfolio', () => {
  const items = generateDemoPortfolio();

  it('is the same on every run: 3000 vehicles and 200 documents', () => {
    expect(generateDemoPortfolio()).toEqual(items);
    expect(items.filter((i) => i.kind === 'vin')).toHaveLength(3000);
    expect(items.filter((i) => i.kind === 'document')).toHaveLength(200);
    expect(generateDemoPortfolio({ seed: 1, vehicles: 5, documents: 0 })).not.toEqual(items.slice(0, 5));
  });

  it('holds valid VINs of known makes with correct check digits, and valid documents', () => {
    for (const item of items) {
      if (item.kind === 'vin') {
        const result = validateVin(item.identifier);
        expect(result.ok && result.warnings).toEqual([]);
        expect(VIN_MAKERS[item.identifier.slice(0, 3)]).toBeDefined();
      } else {
        expect(validateDocument(item.documentType!, item.identifier)).toEqual({
          ok: true,
          value: item.identifier,
        });
      }
    }
    expect(new Set(items.map((i) => `${i.documentType}:${i.identifier}`)).size).toBe(items.length);
    expect(items.some((i) => i.documentType === 'inn' && i.identifier.length === 12)).toBe(true);
    expect(items.some((i) => i.status === 'archived')).toBe(true);
    expect(items[0]!.label).toMatch(/^[A-ZŠ][\w Š]+, 20\d\d, [а-яё]+$/);
  });

  it('seeds an organisation once', async () => {
    const { app } = await buildTestApp();
    const organisationId = await createOrganisation(app.db, 'Демо');
    expect(await seedDemoPortfolio(app.db, organisationId)).toBe(3200);
    expect(await seedDemoPortfolio(app.db, organisationId)).toBe(0);
    const { rows } = await app.db.query(
      `SELECT count(*)::int AS n, count(last_checked_at)::int AS checked FROM monitoring_items WHERE organisation_id = $1`,
      [organisationId],
    );
    expect(rows[0].n).toBe(3200);
    expect(rows[0].checked).toBeGreaterThan(2000);
  });
});
