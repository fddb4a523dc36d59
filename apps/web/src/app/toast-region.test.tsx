import { renderToString } from 'react-dom/server';
import { ToastContainer } from 'react-toastify';
import { describe, expect, it } from 'vitest';
import { TOAST_OPTIONS } from '@/config/constants';

describe('the toast region', () => {
  it('is named in Russian for screen readers, as the app mounts it', () => {
    const html = renderToString(<ToastContainer {...TOAST_OPTIONS} theme="light" />);
    expect(html).toContain('aria-label="Уведомления (Alt+T)"');
    expect(html).not.toMatch(/Notifications/);
  });
});
