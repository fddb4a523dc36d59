import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NewsMarkdown } from './news-markdown';

const render = (source: string) => renderToStaticMarkup(<NewsMarkdown source={source} />);

describe('NewsMarkdown', () => {
  it('renders bold, lists and links that open safely in a new tab', () => {
    const html = render('**Важно**\n\n- один\n- два\n\n[Реестр](https://www.reestr-zalogov.ru/)');
    expect(html).toContain('<strong>Важно</strong>');
    expect(html).toMatch(/<ul>\s*<li>один<\/li>\s*<li>два<\/li>\s*<\/ul>/);
    expect(html).toMatch(
      /<a [^>]*href="https:\/\/www\.reestr-zalogov\.ru\/"[^>]*target="_blank"[^>]*rel="noopener noreferrer"/,
    );
  });

  it('drops raw HTML: no script, no event handlers, no iframes', () => {
    const html = render(
      'Текст <script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n<iframe src="https://evil.example"></iframe>\n\n<b>жирный?</b>',
    );
    expect(html).not.toMatch(/<script|<iframe|<img|onerror|<b>/i);
    expect(html).not.toContain('alert(2)');
    // What stood between inline tags stays as inert text.
    expect(html).toContain('<p>Текст alert(1)</p>');
  });

  it('neutralises javascript: and data: links and images', () => {
    const html = render(
      '[нажми](javascript:alert(1)) [и это](JaVaScRiPt:alert(1)) [данные](data:text/html;base64,PHNjcmlwdD4=) ![x](javascript:alert(3))',
    );
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/data:text/i);
    expect(html).toContain('нажми');
    // The emptied image is its description, never an <img src=""> (the page loaded again).
    expect(html).not.toMatch(/<img/);
    expect(html).toContain('x');
  });

  it('shows an image with a safe address', () => {
    expect(render('![Схема](https://example.ru/scheme.png)')).toMatch(
      /<img src="https:\/\/example\.ru\/scheme\.png" alt="Схема"\/?>/,
    );
  });
});
