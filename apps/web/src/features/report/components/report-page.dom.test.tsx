// @vitest-environment happy-dom
import { REPORT_HEADERS } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { moscowToday } from '@/lib/moscow-time';
import { renderDom } from '@/testing/render-dom';
import ReportPage from './report-page';

const DAY_MS = 86_400_000;
const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

/** Stubs fetch with one answer for the report and records the queries asked for. */
function stubReport(answer: () => Response) {
  const queries: URLSearchParams[] = [];
  vi.stubGlobal('fetch', async (input: string | URL) => {
    queries.push(new URL(String(input), 'http://localhost').searchParams);
    return answer();
  });
  return queries;
}

/** The day a date field shows, as ГГГГ-ММ-ДД, from its day, month and year sections. */
function shownDay(label: string): string {
  const field = screen.getByRole('group', { name: label });
  const part = (name: string) =>
    within(field).getByRole('spinbutton', { name }).getAttribute('aria-valuenow')!.padStart(2, '0');
  return `${part('Год')}-${part('Месяц')}-${part('День')}`;
}

const fileAnswer = () =>
  new Response('PK-report-bytes', {
    status: 200,
    headers: {
      'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent('События.xlsx')}`,
      [REPORT_HEADERS.rows]: '12',
    },
  });

describe('report: the form', () => {
  it('downloads the events of the chosen period and filters, saves the file and says how many rows', async () => {
    const queries = stubReport(fileAnswer);
    const saved = vi.fn((_blob: Blob) => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: saved, revokeObjectURL: () => {} }));
    const { user } = renderDom({ element: <ReportPage /> });

    await user.click(screen.getByRole('button', { name: '7 дней' }));
    // The preset fills both date fields, from six days back to today (Moscow).
    const today = moscowToday();
    expect(shownDay('С')).toBe(daysBefore(today, 6));
    expect(shownDay('По')).toBe(today);
    await user.type(screen.getByLabelText('Метка объекта содержит'), ' Флот ');
    await user.click(screen.getByRole('button', { name: 'Скачать отчёт' }));

    expect(await screen.findByText('Файл «События.xlsx» скачан, строк: 12')).toBeTruthy();
    expect(queries.map((query) => Object.fromEntries(query))).toEqual([
      { kind: 'events', format: 'xlsx', from: daysBefore(today, 6), to: today, label: 'Флот' },
    ]);
    expect(saved).toHaveBeenCalledTimes(1);
    expect(await saved.mock.calls[0]![0].text()).toBe('PK-report-bytes');
  }, 120_000);

  it('shows the server’s Russian refusal with its field messages and stays ready to try again', async () => {
    stubReport(
      () =>
        new Response(
          JSON.stringify({
            statusCode: 422,
            code: 'VALIDATION_ERROR',
            message: 'Проверьте условия отчёта',
            fieldErrors: [{ field: 'from', message: 'Период — не больше 366 дней' }],
          }),
          { status: 422, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    const { user } = renderDom({ element: <ReportPage /> });
    await user.click(screen.getByRole('button', { name: 'Скачать отчёт' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Проверьте условия отчёта');
    expect(alert.textContent).toContain('Период — не больше 366 дней');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Скачать отчёт' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
  }, 120_000);

  it('sends no period for uploads of all time, and its date fields are shut', async () => {
    const queries = stubReport(fileAnswer);
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:report', revokeObjectURL: () => {} }),
    );
    const { user } = renderDom({ element: <ReportPage /> });

    await user.click(screen.getByRole('radio', { name: /Загрузки файлов/ }));
    // Uploads have no item filters; the label search belongs to events and the portfolio.
    expect(screen.queryByLabelText('Метка объекта содержит')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'За всё время' }));
    // Both ends of the period stay as they were, shut: their calendar buttons cannot be pressed.
    const calendars = screen.getAllByRole('button', { name: /^Выберите дату/ }) as HTMLButtonElement[];
    expect(calendars.map((button) => button.disabled)).toEqual([true, true]);
    await user.click(screen.getByRole('button', { name: 'Скачать отчёт' }));

    await screen.findByText(/скачан, строк: 12/);
    expect(queries.map((query) => Object.fromEntries(query))).toEqual([{ kind: 'uploads', format: 'xlsx' }]);
  }, 120_000);
});
