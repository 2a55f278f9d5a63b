import { parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

export { XSS_PAYLOADS } from '../support/xss-payloads';

/** The only elements an exported story page has. */
const ALLOWED = new Set(['html', 'head', 'body', 'meta', 'title', 'style', 'main', 'h1', 'p', 'br']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc', 'poster', 'background']);

const isElement = (n: Node): n is Element => 'tagName' in n;
const textOf = (n: Node): string =>
  n.nodeName === '#text' ? (n as DefaultTreeAdapterMap['textNode']).value : 'childNodes' in n ? (n.childNodes as Node[]).map(textOf).join('') : '';

/**
 * Parses an exported HTML page with a real HTML parser (parse5, as browsers parse) and lists whatever
 * could run: elements other than the page's own, event-handler attributes, script-capable URLs, a
 * meta refresh. Also answers the text, the paragraphs, the heading and the page's own CSP.
 */
export function inertHtmlProblems(html: string) {
  const problems: string[] = [];
  const paragraphs: string[] = [];
  let heading = '';
  let csp = '';
  const walk = (node: Node) => {
    if (isElement(node)) {
      if (!ALLOWED.has(node.tagName)) problems.push(`element <${node.tagName}>`);
      for (const { name, value } of node.attrs) {
        if (/^on/i.test(name)) problems.push(`event handler ${name} on <${node.tagName}>`);
        if (URL_ATTRIBUTES.has(name.toLowerCase()) && /^\s*(javascript|vbscript|data):/i.test(value)) problems.push(`${name}="${value}"`);
        if (name === 'http-equiv' && value.toLowerCase() !== 'content-security-policy') problems.push(`meta http-equiv=${value}`);
      }
      if (node.tagName === 'meta' && node.attrs.some((a) => a.name === 'http-equiv')) csp = node.attrs.find((a) => a.name === 'content')?.value ?? '';
      if (node.tagName === 'p') paragraphs.push(textOf(node));
      if (node.tagName === 'h1') heading = textOf(node);
    }
    if ('childNodes' in node) (node.childNodes as Node[]).forEach(walk);
  };
  const doc = parse(html);
  walk(doc);
  const body = (doc.childNodes.find(isElement)?.childNodes ?? []).find((n) => isElement(n) && n.tagName === 'body');
  return { problems, paragraphs, heading, csp, text: body ? textOf(body) : '' };
}
