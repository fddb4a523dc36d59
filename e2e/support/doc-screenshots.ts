import path from 'node:path';
import type { Page } from '@playwright/test';

/**
 * Screenshots of changed screens for docs/screenshots.md. Written only when asked
 * (DOCS_SCREENSHOTS=1), since they rewrite tracked files; one folder and one pair of sizes for every
 * spec that makes them.
 */
export const DOCS_SCREENSHOTS = Boolean(process.env.DOCS_SCREENSHOTS);
export const DOCS_SCREENSHOTS_DIR = path.join(import.meta.dirname, '../../docs/screenshots');
export const DESKTOP = { width: 1400, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** Writes docs/screenshots/<name>.png, animations off, the caret hidden and `mask` covered. */
export async function saveDocScreenshot(page: Page, name: string, mask: string[] = []): Promise<void> {
  await page.screenshot({
    path: path.join(DOCS_SCREENSHOTS_DIR, `${name}.png`),
    animations: 'disabled',
    caret: 'hide',
    mask: mask.map((selector) => page.locator(selector)),
  });
}
