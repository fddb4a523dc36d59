import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { UploadFileError } from './upload-file-error.ts';
import { MAX_MARKUP_CHARS, XmlTextCap } from './xml-text-cap.ts';

/** The texts of <t> elements after the cap, fed in chunks of the given size. */
function texts(xml: string, max: number, chunk: number): string[] {
  const cap = new XmlTextCap(max);
  const parser = new SaxesParser();
  const found: string[] = [];
  let current: string | null = null;
  parser.on('opentag', (tag) => {
    if (tag.name === 't') {
      current = '';
    }
  });
  parser.on('text', (text) => {
    if (current !== null) {
      current += text;
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 't') {
      found.push(current ?? '');
      current = null;
    }
  });
  for (let i = 0; i < xml.length; i += chunk) {
    parser.write(cap.filter(xml.slice(i, i + chunk)));
  }
  parser.close();
  return found;
}

describe('XmlTextCap', () => {
  it('keeps short texts and markup as they are, whatever the chunks', () => {
    const xml = '<r><t>Лада &amp; «Нива»</t><t a="1">x</t><t/></r>';
    for (const chunk of [1, 2, 3, 7, 100]) {
      expect(texts(xml, 17, chunk)).toEqual(['Лада & «Нива»', 'x', '']);
    }
  });

  it('cuts a long text so that it still reads longer than the cap, never splitting an entity', () => {
    const long = `ab&amp;${'&lt;'.repeat(5000)}`;
    for (const chunk of [1, 3, 64, 65_536]) {
      const [value, next] = texts(`<r><t>${long}</t><t>после</t></r>`, 10, chunk);
      expect(value!.length).toBeGreaterThan(10);
      expect(value!.length).toBeLessThan(100);
      expect(value!.startsWith('ab&<')).toBe(true);
      expect(next).toBe('после');
    }
  });

  it('refuses markup longer than MAX_MARKUP_CHARS (a huge attribute)', () => {
    const cap = new XmlTextCap(10);
    expect(() => cap.filter(`<c r="${'A'.repeat(MAX_MARKUP_CHARS)}">`)).toThrow(UploadFileError);
  });
});
