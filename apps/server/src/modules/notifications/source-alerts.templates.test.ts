import type { SourceAlert } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  renderSourceAlertEmail,
  renderSourceAlertTelegram,
  sourceAlertTitle,
} from './source-alerts.templates.ts';

const alert: SourceAlert = {
  kind: 'stale',
  sourceType: 'accidents',
  sourceName: 'ДТП',
  consecutiveFailures: 0,
  failureThreshold: null,
  lastError: null,
  lastRefreshAt: '2026-03-10T21:30:00.000Z',
  staleHours: 24,
  detectedAt: '2026-03-12T08:05:00.000Z',
  url: 'http://pledgewatch.test/monitoring/sources',
};

describe('source alert messages', () => {
  it('say what happened with people’s dates in Moscow time', () => {
    expect(sourceAlertTitle(alert)).toBe('Данные источника «ДТП» не обновлялись больше 24 ч');
    const mail = renderSourceAlertEmail('ops@bank.test', 'Свежесть', alert);
    expect(mail.text).toContain('Последнее обновление данных: 11.03.2026 00:30 (МСК)\n');
    // Every time in an alert, in the mail and in Telegram, says which zone it is in.
    for (const text of [mail.text, renderSourceAlertTelegram('Свежесть', alert)]) {
      for (const line of text.split('\n').filter((entry) => /\d\d:\d\d/.test(entry))) {
        expect(line).toMatch(/\d\d:\d\d \(МСК\)$/);
      }
    }
    expect(mail.text).toContain('Обнаружено: 12.03.2026 11:05 (МСК)');
    expect(mail.text).toContain('Открыть: http://pledgewatch.test/monitoring/sources');
  });

  it('escape what a source said in HTML and Telegram', () => {
    const failure: SourceAlert = {
      ...alert,
      kind: 'failure',
      consecutiveFailures: 4,
      failureThreshold: 3,
      lastError: '<b>x</b> & y',
    };
    expect(renderSourceAlertEmail('ops@bank.test', 'Сбои', failure).html).toContain(
      '&#60;b&#62;x&#60;/b&#62; &#38; y',
    );
    const telegram = renderSourceAlertTelegram('Сбои', failure);
    expect(telegram).toContain('<b>Источник «ДТП» не отвечает: ошибок подряд — 4</b>');
    expect(telegram).not.toContain('<b>x</b>');
  });
});
