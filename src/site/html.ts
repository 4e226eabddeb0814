// HTML for the site's pages: a tagged template that escapes every interpolated value unless it is
// already HTML (Raw). Pages are strings built at `hoba build` time; no template engine, no client-side
// rendering is needed to read them.

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** HTML that is already safe: kept as it is when interpolated. */
export class Raw {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

/** Tagged template that escapes interpolated strings; arrays are joined, Raw values kept, and
 * undefined, null and false dropped (so `${cond && html`…`}` works). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Raw(out);
}

function render(v: unknown): string {
  if (v instanceof Raw) return v.html;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === undefined || v === null || v === false) return '';
  return escapeHtml(String(v));
}

/** A list of HTML pieces joined by a separator (escaped when it is a string). */
export function joined(parts: readonly unknown[], separator: string | Raw = ', '): Raw {
  return new Raw(parts.map(render).join(render(separator)));
}
