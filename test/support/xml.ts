// A small strict XML 1.0 reader for the tests of the JUnit report (no XML parser is a dependency of
// this package): elements, attributes, text, comments and the XML declaration; no DTD, no CDATA, no
// processing instructions other than the declaration. It throws on anything that is not well-formed
// (an unescaped < or &, an unknown entity, a character XML forbids, mismatched or unclosed tags, a
// duplicate or unquoted attribute, text or a second element outside the root) and decodes entities and
// character references as a conforming parser does, attribute-value normalisation included.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (not its children's), decoded. */
  text: string;
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_.:]*/y;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

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

/** Decodes `&…;` references in `raw`; in an attribute value, raw tabs and line breaks become spaces. */
function decode(raw: string, at: number, inAttribute: boolean): string {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === "<") throw new Error(`xml: unescaped < at ${at + i}`);
    if (char !== "&") {
      out += inAttribute && (char === "\t" || char === "\n" || char === "\r") ? " " : char;
      continue;
    }
    const end = raw.indexOf(";", i);
    if (end < 0) throw new Error(`xml: unterminated reference at ${at + i}`);
    const ref = raw.slice(i + 1, end);
    let value: string | undefined;
    const numeric = /^#(x[0-9A-Fa-f]+|[0-9]+)$/.exec(ref);
    if (numeric) {
      const code = numeric[1]!.startsWith("x")
        ? Number.parseInt(numeric[1]!.slice(1), 16)
        : Number.parseInt(numeric[1]!, 10);
      if (!isXmlChar(code)) throw new Error(`xml: character reference &${ref}; names a character XML forbids`);
      value = String.fromCodePoint(code);
    } else value = ENTITIES[ref];
    if (value === undefined) throw new Error(`xml: unknown entity &${ref}; at ${at + i}`);
    out += value;
    i = end;
  }
  return out;
}

export function parseXml(source: string): XmlElement {
  for (const char of source) {
    if (!isXmlChar(char.codePointAt(0)!))
      throw new Error(`xml: forbidden character U+${char.codePointAt(0)!.toString(16)}`);
  }
  let i = 0;
  const skipSpace = () => {
    while (i < source.length && /[ \t\r\n]/.test(source[i]!)) i++;
  };
  const name = (): string => {
    NAME.lastIndex = i;
    const match = NAME.exec(source);
    if (!match) throw new Error(`xml: a name expected at ${i}`);
    i += match[0].length;
    return match[0];
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (!source.startsWith("<!--", i)) return;
      const end = source.indexOf("-->", i + 4);
      if (end < 0) throw new Error("xml: unterminated comment");
      i = end + 3;
    }
  };
  if (source.startsWith("<?xml", 0)) {
    const end = source.indexOf("?>");
    if (
      end < 0 ||
      !/^<\?xml version="1\.[0-9]"( encoding="[A-Za-z][-A-Za-z0-9._]*")?\s*\?>$/.test(source.slice(0, end + 2))
    )
      throw new Error("xml: malformed declaration");
    i = end + 2;
  }
  skipMisc();
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < source.length) {
    if (stack.length === 0) {
      if (root) {
        skipMisc();
        if (i < source.length) throw new Error(`xml: content after the root element at ${i}`);
        break;
      }
      if (source[i] !== "<") throw new Error(`xml: text outside the root element at ${i}`);
    }
    if (source.startsWith("<!--", i)) {
      const end = source.indexOf("-->", i + 4);
      if (end < 0) throw new Error("xml: unterminated comment");
      i = end + 3;
    } else if (source.startsWith("</", i)) {
      i += 2;
      const closing = name();
      skipSpace();
      if (source[i] !== ">") throw new Error(`xml: > expected at ${i}`);
      i++;
      const open = stack.pop();
      if (open?.name !== closing) throw new Error(`xml: </${closing}> closes <${open?.name}>`);
    } else if (source[i] === "<") {
      if (source[i + 1] === "!" || source[i + 1] === "?") throw new Error(`xml: unsupported markup at ${i}`);
      i++;
      const element: XmlElement = { name: name(), attributes: {}, children: [], text: "" };
      for (;;) {
        const before = i;
        skipSpace();
        if (source.startsWith("/>", i) || source[i] === ">") break;
        if (i === before) throw new Error(`xml: whitespace expected before an attribute at ${i}`);
        const attribute = name();
        skipSpace();
        if (source[i] !== "=") throw new Error(`xml: = expected after ${attribute}`);
        i++;
        skipSpace();
        const quote = source[i];
        if (quote !== '"' && quote !== "'") throw new Error(`xml: unquoted value of ${attribute}`);
        const end = source.indexOf(quote, i + 1);
        if (end < 0) throw new Error(`xml: unterminated value of ${attribute}`);
        if (attribute in element.attributes) throw new Error(`xml: duplicate attribute ${attribute}`);
        element.attributes[attribute] = decode(source.slice(i + 1, end), i + 1, true);
        i = end + 1;
      }
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else root = element;
      if (source.startsWith("/>", i)) i += 2;
      else {
        i++;
        stack.push(element);
      }
    } else {
      const end = source.indexOf("<", i);
      const raw = source.slice(i, end < 0 ? source.length : end);
      if (raw.includes("]]>")) throw new Error("xml: ]]> in text");
      stack.at(-1)!.text += decode(raw.replace(/\r\n?/g, "\n"), i, false);
      i += raw.length;
    }
  }
  if (stack.length) throw new Error(`xml: <${stack.at(-1)!.name}> is not closed`);
  if (!root) throw new Error("xml: no root element");
  return root;
}

/** Every element named `name` under (and including) `element`. */
export function elementsNamed(element: XmlElement, name: string): XmlElement[] {
  return [
    ...(element.name === name ? [element] : []),
    ...element.children.flatMap((child) => elementsNamed(child, name)),
  ];
}
