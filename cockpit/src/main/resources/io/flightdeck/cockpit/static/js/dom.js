// A small element builder: h('div.card', {attrs}, children) without a framework.

/**
 * Creates an element. `spec` is a tag with optional `.class` parts; `attrs` keys starting with
 * "on" become listeners, `dataset` and `style` objects are merged, everything else is an attribute.
 */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split('.');
  const el = document.createElement(tag || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs === null || typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs)) {
    children.unshift(attrs);
    attrs = {};
  }
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'dataset') {
      for (const [name, v] of Object.entries(value)) {
        if (v !== undefined && v !== null && v !== false) el.dataset[name] = String(v);
      }
    } else if (key === 'style' && typeof value === 'object') {
      Object.assign(el.style, value);
    } else if (key === 'class') {
      el.className = [el.className, value].filter(Boolean).join(' ');
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A status pill: running / finished / stalled / crashed / firing / ... */
export function statusPill(status) {
  return h(`span.pill.status-${status || 'unknown'}`, { title: `status: ${status}` }, status || 'unknown');
}

/** An error message in place of content, with the server's text. */
export function errorBox(message) {
  return h('div.error-box', { role: 'alert' }, message);
}
