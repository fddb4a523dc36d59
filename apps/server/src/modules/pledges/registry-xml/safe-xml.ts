/**
 * A guarded XML reader for files the registry sends back (and for reading our own export in tests):
 * no DOCTYPE (so no entity of any kind beyond XML's five), and caps on nesting depth, element count,
 * text size and total size, checked while the text streams through the parser, so a hostile file
 * fails with a Russian reason before it costs memory. Element names are compared by local name:
 * whatever namespace prefix the sender uses, `ns2:NotificationId` reads as `NotificationId`.
 */
import { SaxesParser } from 'saxes';

export interface XmlNode {
  /** Local name (the prefix dropped). */
  name: string;
  children: XmlNode[];
  /** The element's own text, trimmed (mixed content is not expected in these documents). */
  text: string;
}

export interface XmlLimits {
  maxDepth: number;
  maxElements: number;
  maxChars: number;
  maxTextChars: number;
}

/** Registry documents are a few levels deep and a few dozen elements long. */
export const REGISTRY_XML_LIMITS: XmlLimits = {
  maxDepth: 32,
  maxElements: 20_000,
  maxChars: 4 * 1024 * 1024,
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
export function parseXml(text: string, limits: XmlLimits = REGISTRY_XML_LIMITS): XmlNode {
  if (text.length > limits.maxChars) {
    throw new XmlRefusal(`файл больше ${Math.round(limits.maxChars / 1024 / 1024)} МБ текста`);
  }
  const parser = new SaxesParser({ position: true });
  const stack: XmlNode[] = [];
  let root: XmlNode | null = null;
  let elements = 0;
  let failure: XmlRefusal | null = null;
  const refuse = (message: string): never => {
    failure ??= new XmlRefusal(message);
    throw failure;
  };
  parser.on('doctype', () => refuse('в файле есть объявление DOCTYPE (сущности и DTD не принимаются)'));
  parser.on('processinginstruction', (pi) => {
    if (pi.target.toLowerCase() !== 'xml') {
      refuse('в файле есть инструкции обработки XML');
    }
  });
  parser.on('opentag', (tag) => {
    elements += 1;
    if (elements > limits.maxElements) {
      refuse(`в файле больше ${limits.maxElements} элементов`);
    }
    if (stack.length + 1 > limits.maxDepth) {
      refuse(`вложенность элементов глубже ${limits.maxDepth} уровней`);
    }
    const node: XmlNode = { name: localName(tag.name), children: [], text: '' };
    if (stack.length > 0) {
      stack[stack.length - 1]!.children.push(node);
    } else {
      root = node;
    }
    stack.push(node);
  });
  const addText = (value: string) => {
    const node = stack[stack.length - 1];
    if (!node) {
      return;
    }
    if (node.text.length + value.length > limits.maxTextChars) {
      refuse(`текст элемента ${node.name} длиннее ${limits.maxTextChars} символов`);
    }
    node.text += value;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const node = stack.pop();
    if (node) {
      node.text = node.text.trim();
    }
  });
  parser.on('error', (error) => {
    refuse(`XML повреждён: ${error.message.replace(/^undefined:/, '').trim()}`);
  });
  try {
    // Fed in slices, so every cap is checked as the text streams, not after it is all parsed.
    const slice = 64 * 1024;
    for (let offset = 0; offset < text.length; offset += slice) {
      parser.write(text.slice(offset, offset + slice));
    }
    parser.close();
  } catch (error) {
    if (failure) {
      throw failure;
    }
    throw new XmlRefusal(`XML повреждён: ${(error as Error).message}`);
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
