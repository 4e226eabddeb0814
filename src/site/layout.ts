// The shell every page shares: head, skip link, site navigation, main landmark, footer. Pages pass
// their main content and, when they have interactive parts, the names of their browser scripts.
import type { Registry } from '../registry/registry.ts';
import { html, Raw } from './html.ts';
import { SITE, scriptPath } from './paths.ts';

export interface PageOptions {
  /** The page's own title; the site name is appended. */
  title: string;
  /** The page's URL path (marks the current navigation item, and the canonical URL). */
  path: string;
  main: Raw;
  /** A one-sentence description for search engines and link previews; the atlas's description by default. */
  description?: string;
  /** Browser scripts (bundles under /assets/) the page loads, as modules: the page works without them. */
  scripts?: readonly string[];
  /** Extra elements for the head (e.g. a preload). */
  head?: Raw;
}

const NAV: ReadonlyArray<{ href: string; label: string }> = [
  { href: SITE.analyze, label: 'What happened?' },
  { href: SITE.search, label: 'Search' },
  { href: '/browse/', label: 'Browse' },
  { href: SITE.explore, label: 'Graph' },
  { href: SITE.methodology, label: 'Method' },
  { href: SITE.developers, label: 'Developers' },
];

export function page(reg: Registry, options: PageOptions): string {
  const m = reg.manifest;
  const title = options.path === SITE.home ? m.name : `${options.title} · ${m.name}`;
  const current = (href: string) => (href === '/' ? options.path === '/' : options.path.startsWith(href));
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${options.description ?? m.description}">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${SITE.stylesheet}">
${options.head}${(options.scripts ?? []).map((s) => html`<script type="module" src="${scriptPath(s)}"></script>\n`)}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="brand" href="/"${options.path === '/' ? new Raw(' aria-current="page"') : ''}>Hiring Obstacles &amp; Barriers Atlas</a>
<nav aria-label="Site">
<ul>
${NAV.map((item) => html`<li><a href="${item.href}"${current(item.href) ? new Raw(' aria-current="page"') : ''}>${item.label}</a></li>\n`)}</ul>
</nav>
</header>
<main id="main">
${options.main}
</main>
<footer class="site">
<p>${m.name}, content version ${m.registry_version}, released <time datetime="${m.released}">${m.released}</time>.
An observation is not a cause; explanations here are compatible, not proven, and never probabilities. Not legal advice.
Software: MIT. Content: <a href="https://creativecommons.org/licenses/by-sa/4.0/">CC BY-SA 4.0</a>.
<a href="${SITE.developers}">API and data</a>.</p>
</footer>
</body>
</html>
`.html;
}
