import type { Locator } from '@playwright/test';

/**
 * Types a day ('ГГГГ-ММ-ДД') into the app's date field named `label` inside `scope`, as a person
 * does: ДД, ММ, ГГГГ into its sections (the field is not a native date input any more).
 */
export async function typeDate(scope: Locator, label: string, iso: string): Promise<void> {
  const [year, month, day] = iso.split('-');
  const field = scope.getByRole('group', { name: new RegExp(`^${label}`) });
  await field.getByRole('spinbutton', { name: 'День' }).click();
  await field.page().keyboard.type(`${day}${month}${year}`);
}
