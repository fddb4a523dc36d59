import { ITEM_STATUS_LABELS, SEVERITIES, UPLOAD_STATUS_LABELS } from '@pledgewatch/contract';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { registerPdfFonts } from '../../lib/pdf-fonts.ts';
import { pdfTableWidths, pdfTextWidth } from './report-files.ts';
import { definitionOf } from './reports.service.ts';

const ORG = '00000000-0000-0000-0000-000000000001';

describe('report PDF columns', () => {
  it('are wide enough that no label of a closed set is cut apart («Критическ|ая»)', () => {
    const pdf = new PDFDocument({ size: 'A4', layout: 'landscape' });
    registerPdfFonts(pdf);
    const tableWidth = pdf.page.width - 48;
    const cases = [
      { kind: 'events', header: 'Важность', labels: Object.values(SEVERITIES).map((entry) => entry.label) },
      { kind: 'portfolio', header: 'Статус', labels: Object.values(ITEM_STATUS_LABELS) },
      { kind: 'uploads', header: 'Статус', labels: Object.values(UPLOAD_STATUS_LABELS) },
    ] as const;
    for (const { kind, header, labels } of cases) {
      const definition = definitionOf({ kind, from: '2026-03-01', to: '2026-03-05' } as never, ORG);
      const columns = definition.pdf?.columns ?? definition.columns;
      const index = columns.findIndex((column) => column.header === header);
      expect(index, `${kind}: ${header}`).toBeGreaterThanOrEqual(0);
      const room = pdfTextWidth(pdfTableWidths(pdf, columns, tableWidth)[index]!);
      pdf.font('regular').fontSize(6.5);
      for (const word of labels.flatMap((label) => label.split(/\s+/))) {
        expect(pdf.widthOfString(word), `${kind}: «${word}»`).toBeLessThanOrEqual(room);
      }
    }
  });
});
