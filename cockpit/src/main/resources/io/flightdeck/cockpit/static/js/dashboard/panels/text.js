// The text panel. Markdown-ish: headings, paragraphs, lists, **bold**, *italic*, `code`, fenced
// code and [links](http...) built as DOM nodes from escaped text, so a dashboard can never inject
// markup or script. HTML mode keeps only plain text, line breaks and http(s) links' text.
import { h, fill } from '../../dom.js';

function inline(text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  let m;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith('**')) out.push(h('strong', t.slice(2, -2)));
    else if (t.startsWith('`')) out.push(h('code', t.slice(1, -1)));
    else if (t.startsWith('[')) {
      const [, label, href] = t.match(/^\[([^\]]+)\]\(([^)\s]+)\)$/);
      out.push(/^(https?:\/\/|\/)/.test(href) ? h('a', { href, rel: 'noopener noreferrer' }, label) : label);
    } else out.push(h('em', t.slice(1, -1)));
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Markdown-ish text as DOM nodes; nothing from the text becomes markup. */
export function markdown(source) {
  const blocks = [];
  const lines = String(source || '').replace(/\r\n/g, '\n').split('\n');
  let para = [];
  let list = null;
  const flush = () => {
    if (para.length) blocks.push(h('p', inline(para.join(' '))));
    para = [];
    if (list) blocks.push(list);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('```')) {
      flush();
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
      blocks.push(h('pre', h('code', code.join('\n'))));
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    const item = line.match(/^\s*(?:[-*+]|\d+\.)\s+(.*)$/);
    if (heading) {
      flush();
      blocks.push(h(`h${Math.min(6, heading[1].length + 2)}`, inline(heading[2])));
    } else if (item) {
      if (para.length) {
        blocks.push(h('p', inline(para.join(' '))));
        para = [];
      }
      if (!list) list = h('ul');
      list.append(h('li', inline(item[1])));
    } else if (!line.trim()) {
      flush();
    } else {
      if (list) {
        blocks.push(list);
        list = null;
      }
      para.push(line.trim());
    }
  }
  flush();
  return blocks;
}

/** HTML content reduced to its text (tags dropped, <br> and block ends kept as line breaks). */
function htmlText(source) {
  const doc = new DOMParser().parseFromString(String(source || ''), 'text/html');
  doc.querySelectorAll('script,style,iframe,object,embed').forEach((e) => e.remove());
  doc.querySelectorAll('br,p,div,li,h1,h2,h3,h4,h5,h6,tr').forEach((e) => e.append('\n'));
  return (doc.body.textContent || '').replace(/\n{3,}/g, '\n\n').trim();
}

export function renderText(card, data, ctx) {
  const options = ctx.panel.options || {};
  const mode = options.mode || 'markdown';
  const content = ctx.interpolate(options.content || '');
  card.clear();
  let body;
  if (mode === 'code') body = h('pre', h('code', content));
  else if (mode === 'html') body = h('div.dash-text-plain', htmlText(content));
  else body = markdown(content);
  fill(card.body, h('div.dash-text', body));
  card.drawn(1, content.trim() ? 1 : 0);
}
