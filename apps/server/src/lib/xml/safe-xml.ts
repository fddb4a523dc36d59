/**
 * The one way the product reads XML it did not write (XLSX parts, registry result files, provider
 * answers): SaxesParser behind caps that are checked as the document streams, so no input, however
 * well it compresses, costs more than the caps allow.
 *
 * API
 * - `new SafeXmlParser(limits, handlers, options?)`, then `write(chunk)` for each chunk (a string or
 *   UTF-8 bytes, decoded across chunk borders) and `close()` at the end.
 *   - `limits.maxDepth`: open elements at once. saxes keeps a stack entry per open tag, so without
 *     this 24 million nested `<t>` (74 MB unpacked) exhaust the heap.
 *   - `limits.maxElements`: elements in the document (bounds the time a document may take).
 *   - `limits.maxBytes`: input consumed (bytes of byte chunks, characters of string chunks), counted
 *     before any filter; `options.budget` (an `XmlBudget`) adds a cap shared by several documents,
 *     e.g. every part of one XLSX against its total unpacked size.
 *   - A DOCTYPE (and with it every ENTITY declaration) is refused, whatever the limits.
 *   - `handlers`: `opentag`, `closetag` (`{ name, attributes }`, names as written, prefixes kept),
 *     `text` (text and CDATA). A handler may throw; the error leaves `write` as it is.
 *   - `options.label`: how the message names the document (Russian, e.g. «Файл XLSX отклонён»).
 *   - `options.filter`: applied to decoded text before the parser (e.g. the XLSX text-run cap).
 * - Every cap breach throws `XmlLimitError` (`reason`, a Russian `message`); malformed XML throws
 *   saxes' own Error. `parseXml(source, limits, handlers, options)` runs a whole stream or string.
 */
import { SaxesParser } from 'saxes';

export interface SafeXmlLimits {
  maxDepth: number;
  maxElements: number;
  maxBytes: number;
}

export interface XmlTag {
  name: string;
  attributes: Record<string, string>;
}

export interface SafeXmlHandlers {
  opentag?: (tag: XmlTag) => void;
  closetag?: (tag: XmlTag) => void;
  text?: (text: string) => void;
}

export type XmlLimitReason = 'depth' | 'elements' | 'size' | 'doctype';

/** A document over one of the caps, or with a DOCTYPE: the message is for the user, in Russian. */
export class XmlLimitError extends Error {
  readonly reason: XmlLimitReason;

  constructor(reason: XmlLimitReason, message: string) {
    super(message);
    this.name = 'XmlLimitError';
    this.reason = reason;
  }
}

export const isXmlLimitError = (error: unknown): error is XmlLimitError => error instanceof XmlLimitError;

/** A size cap shared by several documents (the parts of one archive). */
export class XmlBudget {
  readonly maxBytes: number;
  used = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }
}

export interface SafeXmlOptions {
  label?: string;
  budget?: XmlBudget;
  filter?: (text: string) => string;
}

const megabytes = (bytes: number) => `${Math.max(1, Math.round(bytes / (1024 * 1024)))} МБ`;

export class SafeXmlParser {
  private readonly parser = new SaxesParser();
  private readonly limits: SafeXmlLimits;
  private readonly options: SafeXmlOptions;
  private readonly decoder = new TextDecoder('utf-8');
  private bytes = 0;
  private elements = 0;
  /** Open elements right now. */
  depth = 0;

  constructor(limits: SafeXmlLimits, handlers: SafeXmlHandlers, options: SafeXmlOptions = {}) {
    this.limits = limits;
    this.options = options;
    const { opentag, closetag, text } = handlers;
    // opentagstart comes before saxes pushes the tag on its stack: the cap holds before it grows.
    this.parser.on('opentagstart', () => {
      if (++this.depth > limits.maxDepth) {
        throw this.refuse('depth', `вложенность элементов XML глубже ${limits.maxDepth} уровней`);
      }
      if (++this.elements > limits.maxElements) {
        throw this.refuse('elements', `в документе больше ${limits.maxElements} элементов XML`);
      }
    });
    if (opentag) {
      this.parser.on('opentag', (tag) => opentag(tag as XmlTag));
    }
    this.parser.on('closetag', (tag) => {
      this.depth--;
      closetag?.(tag as XmlTag);
    });
    if (text) {
      this.parser.on('text', text);
      this.parser.on('cdata', text);
    }
    this.parser.on('doctype', () => {
      throw this.refuse('doctype', 'объявления DOCTYPE и ENTITY в XML не допускаются');
    });
  }

  write(chunk: string | Uint8Array): void {
    const size = typeof chunk === 'string' ? chunk.length : chunk.byteLength;
    this.count(size);
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    this.parser.write(this.options.filter ? this.options.filter(text) : text);
  }

  close(): void {
    const rest = this.decoder.decode();
    if (rest) {
      this.parser.write(this.options.filter ? this.options.filter(rest) : rest);
    }
    this.parser.close();
  }

  private count(size: number): void {
    this.bytes += size;
    if (this.bytes > this.limits.maxBytes) {
      throw this.refuse('size', `распакованный объём XML больше ${megabytes(this.limits.maxBytes)}`);
    }
    const budget = this.options.budget;
    if (budget) {
      budget.used += size;
      if (budget.used > budget.maxBytes) {
        throw this.refuse('size', `распакованный объём XML больше ${megabytes(budget.maxBytes)}`);
      }
    }
  }

  private refuse(reason: XmlLimitReason, detail: string): XmlLimitError {
    return new XmlLimitError(reason, `${this.options.label ?? 'Документ XML отклонён'}: ${detail}`);
  }
}

/** Parses a whole document (a string, or a stream of strings or bytes) within the limits. */
export async function parseXml(
  source: string | Uint8Array | AsyncIterable<string | Uint8Array>,
  limits: SafeXmlLimits,
  handlers: SafeXmlHandlers,
  options?: SafeXmlOptions,
): Promise<void> {
  const parser = new SafeXmlParser(limits, handlers, options);
  if (typeof source === 'string' || source instanceof Uint8Array) {
    parser.write(source);
  } else {
    for await (const chunk of source) {
      parser.write(chunk);
    }
  }
  parser.close();
}
