/**
 * Writes, checks and reads a document by the format's element tree (format-2-3.ts). A document's
 * value is plain data: an element with children is an object keyed by child name, a repeated child an
 * array, a leaf a string; a missing or empty value means the element is left out.
 */
import type { ElementSpec, TextRule } from './format-2-3.ts';
import type { XmlNode } from './safe-xml.ts';

export type XmlValue = string | XmlObject | XmlObject[];
export interface XmlObject {
  [name: string]: XmlValue | undefined;
}

export interface FormatIssue {
  /** Where, as element names: `FormUZ1/Pledgors/Pledgor[1]/PrivatePerson/BirthDate`. */
  path: string;
  /** What, in Russian: «залогодатель 1 → физическое лицо → дата рождения». */
  field: string;
  message: string;
}

const isPresent = (value: XmlValue | undefined): value is XmlValue =>
  value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

// XML 1.0 forbids most control characters even escaped; they are dropped rather than written.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 cannot carry
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The element as indented XML, children in the format's order, empty optional elements left out. */
export function writeElement(spec: ElementSpec, value: XmlValue, indent = '', namespace?: string): string {
  const attributes = [
    ...(namespace ? [`xmlns="${escapeXml(namespace)}"`] : []),
    ...Object.entries(spec.attributes ?? {}).map(([name, text]) => `${name}="${escapeXml(text)}"`),
  ];
  const open = `${indent}<${spec.name}${attributes.length > 0 ? ` ${attributes.join(' ')}` : ''}>`;
  if (!spec.children) {
    return `${open}${escapeXml(String(value))}</${spec.name}>`;
  }
  const object = value as XmlObject;
  const lines: string[] = [open];
  for (const child of spec.children) {
    const childValue = object[child.name];
    if (!isPresent(childValue)) {
      continue;
    }
    const items = Array.isArray(childValue) ? childValue : [childValue];
    for (const item of items) {
      lines.push(writeElement(child, item, `${indent}  `));
    }
  }
  lines.push(`${indent}</${spec.name}>`);
  return lines.join('\n');
}

const DAY_MS = 86_400_000;

function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) {
    return false;
  }
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text && date.getTime() > Date.UTC(1900, 0, 1) - DAY_MS;
}

/** Why a leaf's text breaks its rule, or null. */
export function checkText(rule: TextRule, text: string): string | null {
  const length = [...text].length;
  if (rule.type === 'date' && !isCalendarDate(text)) {
    return 'дата в формате ГГГГ-ММ-ДД';
  }
  if (
    rule.type === 'datetime' &&
    (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) || Number.isNaN(Date.parse(text)))
  ) {
    return 'дата и время в формате ГГГГ-ММ-ДДTчч:мм:сс';
  }
  if (rule.type === 'boolean' && text !== 'true' && text !== 'false') {
    return 'значение true или false';
  }
  if (rule.min !== undefined && length < rule.min) {
    return rule.min === 1 ? 'не может быть пустым' : `не короче ${rule.min} символов`;
  }
  if (rule.max !== undefined && length > rule.max) {
    return `не длиннее ${rule.max} символов (сейчас ${length})`;
  }
  if (rule.pattern && !rule.pattern.test(text)) {
    return rule.patternRule ?? 'неверный формат';
  }
  return null;
}

/** Every place where the value breaks the element tree's rules, in document order. */
export function validateElement(
  spec: ElementSpec,
  value: XmlValue | undefined,
  path = spec.name,
  field = '',
): FormatIssue[] {
  const issues: FormatIssue[] = [];
  const here = field || spec.label;
  if (!spec.children) {
    const problem = checkText(spec.text!, String(value ?? ''));
    return problem ? [{ path, field: here, message: problem }] : [];
  }
  const object = (value ?? {}) as XmlObject;
  const present = spec.children.filter((child) => isPresent(object[child.name]));
  if (spec.choice && present.length !== 1) {
    issues.push({
      path,
      field: here,
      message:
        present.length === 0
          ? `укажите одно из: ${spec.children.map((c) => c.label).join(', ')}`
          : `только одно из: ${present.map((c) => c.label).join(', ')}`,
    });
  }
  if (spec.oneOf && !spec.oneOf.some((name) => isPresent(object[name]))) {
    const labels = spec.children.filter((c) => spec.oneOf!.includes(c.name)).map((c) => c.label);
    issues.push({ path, field: here, message: `укажите хотя бы одно из: ${labels.join(', ')}` });
  }
  for (const child of spec.children) {
    const childValue = object[child.name];
    const childField = (n?: number) => `${here} → ${child.label}${n !== undefined ? ` ${n}` : ''}`;
    if (!isPresent(childValue)) {
      if (child.required && !spec.choice) {
        issues.push({ path: `${path}/${child.name}`, field: childField(), message: 'обязательное поле' });
      }
      continue;
    }
    if (child.repeated) {
      const items = Array.isArray(childValue) ? childValue : [childValue];
      items.forEach((item, index) => {
        const numbered = items.length > 1 ? index + 1 : undefined;
        issues.push(
          ...validateElement(child, item, `${path}/${child.name}[${index + 1}]`, childField(numbered)),
        );
      });
    } else {
      issues.push(...validateElement(child, childValue, `${path}/${child.name}`, childField()));
    }
  }
  return issues;
}

/** A parsed element back into the value the writer takes, read by the same tree (local names). */
export function readElement(spec: ElementSpec, node: XmlNode): XmlValue {
  if (!spec.children) {
    return node.text;
  }
  const object: XmlObject = {};
  for (const child of spec.children) {
    const found = node.children.filter((n) => n.name === child.name);
    if (found.length === 0) {
      continue;
    }
    object[child.name] = child.repeated
      ? found.map((n) => readElement(child, n) as XmlObject)
      : readElement(child, found[0]!);
  }
  return object;
}
