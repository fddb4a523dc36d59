import type { OneTimeCheckDocument } from '@pledgewatch/contract';
import PDFDocument from 'pdfkit';
import { registerPdfFonts } from '../../../lib/pdf-fonts.ts';

const GREY = '#555555';
const RED = '#b00020';

/** Renders the check document as an A4 PDF with embedded (subset) fonts. */
export function renderCheckDocumentPdf(document: OneTimeCheckDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: 50, bottom: 50, left: 55, right: 55 },
    info: {
      Title: `${document.title} ${document.number}`,
      Author: document.organisation,
      Creator: 'Pledgewatch',
    },
  });
  registerPdfFonts(pdf);
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const line = (label: string, value: string, indent = 0) => {
    pdf
      .font('bold')
      .fontSize(10)
      .fillColor('black')
      .text(`${label}: `, pdf.page.margins.left + indent, pdf.y, {
        continued: true,
      });
    pdf.font('regular').text(value);
  };

  if (document.demo) {
    pdf.font('bold').fontSize(10).fillColor(RED).text('ДЕМО — демонстрационные данные', { align: 'right' });
  }
  pdf.font('bold').fontSize(16).fillColor('black').text(`${document.title} № ${document.number}`);
  pdf.moveDown(0.5);
  line('Организация', document.organisation);
  line('Проверил', document.checkedBy);
  line('Дата и время', document.checkedAtMoscow);
  line('Итог', `${document.statusLabel}. ${document.summary}`);

  pdf.moveDown();
  pdf.font('bold').fontSize(13).text('Объект проверки');
  line(document.subject.kindLabel, document.subject.identifierDisplay);
  for (const entry of document.subject.decoding) {
    line(entry.label, entry.value);
  }
  for (const warning of document.subject.warnings) {
    pdf.font('regular').fontSize(9).fillColor(GREY).text(warning);
  }

  pdf.moveDown();
  pdf.font('bold').fontSize(13).fillColor('black').text('Ответы источников');
  for (const source of document.sources) {
    pdf.moveDown(0.6);
    pdf
      .font('bold')
      .fontSize(11)
      .fillColor(source.status === 'failed' ? RED : 'black')
      .text(`${source.name} (${source.answeredBy}) — ${source.statusLabel}`);
    pdf.font('regular').fontSize(10).fillColor('black').text(source.answer);
    for (const finding of source.findings) {
      pdf.moveDown(0.3);
      pdf
        .font('bold')
        .fontSize(10)
        .text(`Запись ${finding.key}`, pdf.page.margins.left + 12);
      for (const entry of finding.lines) {
        line(entry.label, entry.value, 12);
      }
    }
  }

  pdf.moveDown(1.5);
  pdf.font('regular').fontSize(8).fillColor(GREY).text(document.disclaimer, pdf.page.margins.left, pdf.y);
  pdf.end();
  return done;
}
