// Small DOM helpers shared by the site's scripts.
import type { Raw } from '../../html.ts';

/** The element with this ID; a page without it is a build error, said plainly. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`this page has no element #${id}`);
  return el as T;
}

/** Replaces an element's content with HTML built by the escaping `html` template. */
export function setHtml(el: Element, content: Raw): void {
  el.innerHTML = content.html;
}

/** Calls `fn` once typing pauses for `ms`. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
