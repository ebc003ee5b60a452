/**
 * A minimal XML 1.0 well-formedness checker and reader for the JUnit tests (no XML parser is
 * installed, and none is added): one root element, balanced tags, quoted and unique attributes,
 * only the five predefined entities and valid character references, no `<` or `]]>` in text,
 * no character outside XML 1.0's `Char`. Comments, CDATA, DOCTYPE and processing instructions
 * other than the XML declaration are rejected, since the JUnit writer produces none.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Decoded character data directly inside this element, concatenated. */
  text: string;
}

const nameStart = '[A-Za-z_:]';
const nameChar = '[A-Za-z0-9_:.\\-]';
const name = new RegExp(`^${nameStart}${nameChar}*`);
const predefined: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

function checkChars(text: string, where: string): void {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    // a lone surrogate iterates as itself (0xD800-0xDFFF), which isXmlChar rejects
    if (!isXmlChar(code)) throw new Error(`character U+${code.toString(16).toUpperCase()} is not allowed in XML 1.0 (${where})`);
  }
}

/** Decodes references in text or an attribute value; throws on a bare `&` or an unknown entity. */
function decode(raw: string, where: string): string {
  return raw.replace(/&([^;&\s]*);?/g, (match, ref: string) => {
    if (!match.endsWith(';')) throw new Error(`bare & in ${where}: ${JSON.stringify(match)}`);
    if (ref in predefined) return predefined[ref]!;
    const numeric = /^#(\d+)$/.exec(ref) ?? /^#x([0-9a-fA-F]+)$/.exec(ref);
    if (numeric) {
      const code = parseInt(numeric[1]!, ref.startsWith('#x') ? 16 : 10);
      if (!isXmlChar(code)) throw new Error(`character reference &${ref}; is not an XML 1.0 Char (${where})`);
      return String.fromCodePoint(code);
    }
    throw new Error(`unknown entity &${ref}; in ${where}`);
  });
}

/**
 * Checks `xml` and returns its root element.
 * @throws Error describing the first problem found
 */
export function parseXml(xml: string): XmlElement {
  checkChars(xml, 'document');
  let i = 0;
  const declaration = /^<\?xml\s+version="1\.0"(\s+encoding="[A-Za-z0-9._-]+")?\s*\?>/.exec(xml);
  if (declaration) i = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (text.includes(']]>')) throw new Error(`"]]>" in character data at ${i}`);
    if (text.includes('>')) {
      // legal in XML, but the writer escapes it; flag it so a ']]' + '>' split cannot hide
      throw new Error(`unescaped > in character data at ${i}`);
    }
    const decoded = decode(text, `text at ${i}`);
    if (stack.length > 0) stack[stack.length - 1]!.text += decoded;
    else if (text.trim() !== '') throw new Error(`text outside the root element at ${i}`);
    if (lt === -1) break;
    i = lt;

    if (xml.startsWith('</', i)) {
      const m = name.exec(xml.slice(i + 2));
      if (!m) throw new Error(`malformed end tag at ${i}`);
      const end = xml.indexOf('>', i);
      if (end === -1 || xml.slice(i + 2 + m[0].length, end).trim() !== '') throw new Error(`malformed end tag at ${i}`);
      const open = stack.pop();
      if (!open || open.name !== m[0]) throw new Error(`</${m[0]}> at ${i} closes <${open?.name ?? 'nothing'}>`);
      i = end + 1;
      continue;
    }
    if (xml.startsWith('<!', i) || xml.startsWith('<?', i)) throw new Error(`unexpected markup at ${i}: ${xml.slice(i, i + 12)}`);

    const m = name.exec(xml.slice(i + 1));
    if (!m) throw new Error(`malformed start tag at ${i}`);
    const element: XmlElement = { name: m[0], attributes: {}, children: [], text: '' };
    let j = i + 1 + m[0].length;
    for (;;) {
      const ws = /^\s*/.exec(xml.slice(j))![0];
      j += ws.length;
      if (xml.startsWith('/>', j) || xml.startsWith('>', j)) break;
      if (ws.length === 0) throw new Error(`missing whitespace before attribute at ${j}`);
      const a = new RegExp(`^(${nameStart}${nameChar}*)\\s*=\\s*(["'])`).exec(xml.slice(j));
      if (!a) throw new Error(`malformed attribute at ${j}: ${xml.slice(j, j + 20)}`);
      const quote = a[2]!;
      const start = j + a[0].length;
      const close = xml.indexOf(quote, start);
      if (close === -1) throw new Error(`unterminated attribute value at ${start}`);
      const raw = xml.slice(start, close);
      if (raw.includes('<')) throw new Error(`< in attribute value at ${start}`);
      if (a[1]! in element.attributes) throw new Error(`duplicate attribute ${a[1]} at ${j}`);
      element.attributes[a[1]!] = decode(raw, `attribute ${a[1]}`);
      j = close + 1;
    }
    const selfClosing = xml.startsWith('/>', j);
    i = j + (selfClosing ? 2 : 1);
    if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
    else if (root) throw new Error(`second root element <${element.name}> at ${i}`);
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Elements named `name` anywhere below `element`, in document order. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const child of element.children) {
    if (child.name === name) found.push(child);
    found.push(...findAll(child, name));
  }
  return found;
}
