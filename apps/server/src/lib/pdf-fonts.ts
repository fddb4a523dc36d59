import { createRequire } from 'node:module';
import path from 'node:path';
import type PDFDocument from 'pdfkit';

// DejaVu ships inside an npm package, so every PDF has Cyrillic glyphs whatever the host has installed.
const fontDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);
const REGULAR = path.join(fontDir, 'DejaVuSans.ttf');
const BOLD = path.join(fontDir, 'DejaVuSans-Bold.ttf');

/** Registers the fonts every PDF of the app uses, as `regular` and `bold` (embedded as subsets). */
export function registerPdfFonts(pdf: InstanceType<typeof PDFDocument>): void {
  pdf.registerFont('regular', REGULAR);
  pdf.registerFont('bold', BOLD);
}
