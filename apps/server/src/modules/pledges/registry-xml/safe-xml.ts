/**
 * Registry documents as element trees, read through the product's one guarded XML parser
 * (lib/xml/safe-xml.ts: no DOCTYPE, so no entity beyond XML's five; caps on depth, element count and
 * size checked as the text streams) with one more cap of this reader's own, on an element's text.
 * Element names are compared by local name: whatever namespace prefix the sender uses,
 * `ns2:NotificationId` reads as `NotificationId`.
 */
import { isXmlLimitError, type SafeXmlLimits, SafeXmlParser } from '../../../lib/xml/safe-xml.ts';

export interface XmlNode {
  /** Local name (the prefix dropped). */
  name: string;
  children: XmlNode[];
  /** The element's own text, trimmed (mixed content is not expected in these documents). */
  text: string;
}

/** Registry documents are a few levels deep and a few dozen elements long. */
export const REGISTRY_XML_LIMITS: SafeXmlLimits & { maxTextChars: number } = {
  maxDepth: 32,
  maxElements: 20_000,
  maxBytes: 4 * 1024 * 1024,
  maxTextChars: 10_000,
};

/** A registry file refused (hostile or broken XML, a zip bomb), with the reason in Russian. */
export class XmlRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlRefusal';
  }
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** Parses the text into a tree, or throws XmlRefusal with the reason in Russian. */
export function parseXml(text: string, limits = REGISTRY_XML_LIMITS): XmlNode {
  const stack: XmlNode[] = [];
  let root: XmlNode | null = null;
  const parser = new SafeXmlParser(
    limits,
    {
      opentag: (tag) => {
        const node: XmlNode = { name: localName(tag.name), children: [], text: '' };
        if (stack.length > 0) {
          stack[stack.length - 1]!.children.push(node);
        } else {
          root = node;
        }
        stack.push(node);
      },
      closetag: () => {
        const node = stack.pop();
        if (node) {
          node.text = node.text.trim();
        }
      },
      text: (value) => {
        const node = stack[stack.length - 1];
        if (!node) {
          return;
        }
        if (node.text.length + value.length > limits.maxTextChars) {
          throw new XmlRefusal(`текст элемента ${node.name} длиннее ${limits.maxTextChars} символов`);
        }
        node.text += value;
      },
    },
    { label: 'XML отклонён' },
  );
  try {
    // Fed in slices, so every cap is checked as the text streams, not after it is all parsed.
    const slice = 64 * 1024;
    for (let offset = 0; offset < text.length; offset += slice) {
      parser.write(text.slice(offset, offset + slice));
    }
    parser.close();
  } catch (error) {
    if (error instanceof XmlRefusal) {
      throw error;
    }
    if (isXmlLimitError(error)) {
      throw new XmlRefusal(error.message);
    }
    throw new XmlRefusal(`XML повреждён: ${(error as Error).message.replace(/^undefined:/, '').trim()}`);
  }
  if (!root) {
    throw new XmlRefusal('в файле нет ни одного элемента XML');
  }
  return root;
}

/** Every element with this local name, in document order (the node itself included). */
export function findAll(node: XmlNode, name: string): XmlNode[] {
  const found: XmlNode[] = [];
  const walk = (current: XmlNode) => {
    if (current.name === name) {
      found.push(current);
    }
    current.children.forEach(walk);
  };
  walk(node);
  return found;
}

/** The text of the first descendant with this local name, or null. */
export const textOf = (node: XmlNode, name: string): string | null => findAll(node, name)[0]?.text ?? null;
