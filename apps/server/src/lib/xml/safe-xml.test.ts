import { describe, expect, it } from 'vitest';
import { parseXml, SafeXmlParser, XmlBudget, XmlLimitError } from './safe-xml.ts';

const LIMITS = { maxDepth: 8, maxElements: 100, maxBytes: 10_000 };

async function refusal(run: () => Promise<void> | void): Promise<XmlLimitError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(XmlLimitError);
    return error as XmlLimitError;
  }
  throw new Error('not refused');
}

describe('SafeXmlParser', () => {
  it('reads a document within the caps: tags, attributes, text and CDATA', async () => {
    const seen: string[] = [];
    await parseXml('<a x="1"><b>t1</b><c><![CDATA[t2]]></c><d/></a>', LIMITS, {
      opentag: (tag) => seen.push(`<${tag.name}${tag.attributes.x ?? ''}`),
      closetag: (tag) => seen.push(`/${tag.name}`),
      text: (text) => seen.push(text),
    });
    expect(seen).toEqual(['<a1', '<b', 't1', '/b', '<c', 't2', '/c', '<d', '/d', '/a']);
  });

  it('refuses nesting deeper than maxDepth as it streams, before the rest is read', async () => {
    const parser = new SafeXmlParser(LIMITS, {});
    let written = 0;
    const error = await refusal(() => {
      // An endless stream of open tags: the refusal comes at the ninth, whatever follows.
      for (;;) {
        parser.write('<t>');
        written++;
      }
    });
    expect(written).toBe(LIMITS.maxDepth);
    expect(error.reason).toBe('depth');
    expect(error.message).toBe('Документ XML отклонён: вложенность элементов XML глубже 8 уровней');
  });

  it('siblings do not count as depth; more elements than maxElements are refused', async () => {
    await parseXml(`<a>${'<b/>'.repeat(99)}</a>`, LIMITS, {});
    const error = await refusal(() => parseXml(`<a>${'<b><c/></b>'.repeat(60)}</a>`, LIMITS, {}));
    expect(error.reason).toBe('elements');
    expect(error.message).toMatch(/больше 100 элементов XML/);
  });

  it('counts the input, bytes or characters, against maxBytes and against a shared budget', async () => {
    const big = Buffer.from(`<a>${'x'.repeat(20_000)}</a>`);
    expect((await refusal(() => parseXml(big, LIMITS, {}))).reason).toBe('size');
    const budget = new XmlBudget(3_000);
    const part = `<a>${'x'.repeat(1_900)}</a>`;
    await parseXml(part, LIMITS, {}, { budget });
    const error = await refusal(() => parseXml(part, LIMITS, {}, { budget, label: 'Файл XLSX отклонён' }));
    expect(error.message).toBe('Файл XLSX отклонён: распакованный объём XML больше 1 МБ');
  });

  it('refuses a DOCTYPE and its ENTITY declarations (no expansion, no external fetch)', async () => {
    const lol =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><a>&lol2;</a>';
    const error = await refusal(() => parseXml(lol, LIMITS, { text: () => {} }));
    expect(error.reason).toBe('doctype');
    expect(error.message).toMatch(/DOCTYPE и ENTITY/);
  });

  it('decodes UTF-8 split across chunks', async () => {
    const bytes = Buffer.from('<a>Проверка</a>');
    let text = '';
    await parseXml(
      (async function* () {
        for (const byte of bytes) {
          yield Uint8Array.of(byte);
        }
      })(),
      LIMITS,
      { text: (chunk) => (text += chunk) },
    );
    expect(text).toBe('Проверка');
  });
});
