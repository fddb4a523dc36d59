const dateFormat = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/Moscow',
});
const dateTimeFormat = new Intl.DateTimeFormat('ru-RU', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/Moscow',
});

/** «12 мая 2026 г.» in Moscow time, the way the platform team dates its news. */
export const formatNewsDate = (iso: string) => dateFormat.format(new Date(iso));
export const formatNewsDateTime = (iso: string) => `${dateTimeFormat.format(new Date(iso))} МСК`;
