// The site's one stylesheet (served as /assets/site.css, cached across pages). Light and dark schemes
// follow the reader's system setting; every colour pair meets WCAG 2.1 AA contrast (text 4.5:1, borders
// and focus rings 3:1) in both; focus is always visible; nothing is conveyed by colour alone (a tier or
// an evidence level is always written out, colour only repeats it); no page scrolls sideways from 360 px
// (wide tables and code scroll inside their own .table-wrap or <pre>).
//
// Classes pages may use (keep this list in step with the rules below):
//   layout      .lede .muted .small .stack .cols (a list in columns) .cards/.card (a grid of boxes)
//               .toc (an "on this page" nav) .panel .note .notice (the legal notice) .actions
//   forms       .search-form/.search-row  .describe-form  .filters (a fieldset of filters)  .button (a link as a button)
//   data        caption.sub (a quiet caption under a heading)  .table-wrap (a scroll box around a table, with tabindex="0"; position: relative, so the
//               .visually-hidden text inside cannot widen the page)  table.terms (a vocabulary: term, meaning)  .kv (a dl grid)
//               .tag  .badge  .tier-produces/.tier-same-stage  .ev-established/.ev-supported/
//               .ev-hypothesis/.ev-illustrative  .fidelity  .id (an atlas ID, never broken inside)
//   answer      .cv (the candidate view: .cv-what .cv-lead .cv-dates/.cv-case .cv-deadlines .cv-group .cv-items
//               .cv-title .cv-if .cv-more .cv-found .cv-full) .record (the record kept in the browser: .record-events,
//               .record-actions) .print-only/.no-print; sup.ref (an ID in prose, as a note)
//   content     .specimen (an illustrative, anonymised text; .specimen-label, mark.tell) .diagram
//               (a figure holding a build-time SVG) .count
export const SITE_CSS = `
:root { --fg: #1b1b1b; --muted: #4a4a4a; --bg: #ffffff; --panel: #f4f4f2; --line: #c8c8c8; --link: #0645ad; --accent: #8a4b00; --focus: #b35c00; --ok: #1e6b2f; --warn: #8a4b00; --strong-line: #767676; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8e8; --muted: #b8b8b8; --bg: #151515; --panel: #222222; --line: #4a4a4a; --link: #8ab4f8; --accent: #f0b46a; --focus: #f5a623; --ok: #7fd18f; --warn: #f0b46a; --strong-line: #8a8a8a; }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { font: 17px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: var(--fg); background: var(--bg); overflow-wrap: anywhere; }
main { display: block; max-width: 60rem; margin: 0 auto; padding: 1rem 1rem 3rem; }
main > :first-child { margin-top: 0.5rem; }
a { color: var(--link); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible, [tabindex]:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 1rem 0 0.5rem; }
h2 { font-size: 1.35rem; line-height: 1.3; margin: 2.25rem 0 0.5rem; }
h3 { font-size: 1.1rem; line-height: 1.35; margin: 1.5rem 0 0.4rem; }
h4 { font-size: 1rem; margin: 1.25rem 0 0.3rem; }
p, ul, ol, dl { margin: 0.5rem 0 1rem; }
ul, ol { padding-left: 1.4rem; }
li + li { margin-top: 0.25rem; }
code, pre, kbd, samp { font: 0.9em/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { overflow-wrap: anywhere; }
pre { position: relative; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 0.75rem; overflow-x: auto; max-width: 100%; white-space: pre; overflow-wrap: normal; }
pre code { font-size: inherit; overflow-wrap: normal; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
.table-wrap { overflow-x: auto; max-width: 100%; margin: 0.5rem 0 1rem; position: relative; }
.table-wrap > table { margin: 0; }
.table-wrap > table td, .table-wrap > table th { overflow-wrap: normal; }
.table-wrap > table code { overflow-wrap: normal; }
.table-wrap > table code.hash { overflow-wrap: anywhere; font-size: 0.8em; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
caption.sub { font-weight: 400; color: var(--muted); font-size: 0.92em; }
th, td { border: 1px solid var(--line); padding: 0.35rem 0.5rem; text-align: left; vertical-align: top; }
th { background: var(--panel); }
table.terms th[scope="row"] { font-weight: 400; }
table.terms th[scope="row"] > code { font-weight: 600; }
@media (max-width: 30rem) { th, td { padding: 0.3rem 0.35rem; } }
img, svg { max-width: 100%; height: auto; }
hr { border: 0; border-top: 1px solid var(--line); margin: 2rem 0; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
.skip { position: absolute; left: -999px; top: 0; } .skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: 0.25rem 0.5rem; z-index: 10; }

header.site { border-bottom: 1px solid var(--line); padding: 0.5rem 1rem; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; align-items: baseline; max-width: 60rem; margin: 0 auto; }
header.site .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
header.site ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
header.site li + li { margin-top: 0; }
header.site a { display: inline-block; padding: 0.2rem 0; }
header.site a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
footer.site { max-width: 60rem; margin: 2rem auto 0; padding: 0.75rem 1rem 2rem; border-top: 1px solid var(--line); font-size: 0.9em; color: var(--muted); }
footer.site a { color: var(--link); }

.lede { font-size: 1.08em; max-width: 44rem; }
.muted { color: var(--muted); }
.small { font-size: 0.9em; }
.stack > * + * { margin-top: 0.75rem; }
.cols { columns: 2 18rem; column-gap: 2rem; }
.cols > li { break-inside: avoid; }
.plain { list-style: none; padding-left: 0; }
.cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr)); gap: 0.75rem; }
.cards > li { margin: 0; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; height: 100%; }
.card > :first-child { margin-top: 0; }
.card > :last-child { margin-bottom: 0; }
.card h2, .card h3 { margin: 0 0 0.35rem; font-size: 1.1rem; }
.count { font-variant-numeric: tabular-nums; color: var(--muted); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; margin: 1rem 0; }
.panel > :first-child { margin-top: 0; }
.panel > :last-child { margin-bottom: 0; }
.note { border-left: 4px solid var(--accent); padding: 0.25rem 0.75rem; margin: 1rem 0; }
.notice { border: 1px solid var(--strong-line); border-left: 4px solid var(--accent); border-radius: 4px; padding: 0.5rem 0.75rem; margin: 1rem 0; font-size: 0.95em; }
.toc { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 1rem; margin: 1rem 0 1.5rem; }
.toc h2 { font-size: 1rem; margin: 0.25rem 0; }
.toc ol, .toc ul { margin: 0.25rem 0 0.5rem; }
.toc li + li { margin-top: 0.1rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin: 0.75rem 0 1rem; }

.tag { display: inline-block; border: 1px solid var(--line); border-radius: 3px; padding: 0 0.35rem; font-size: 0.85em; margin: 0 0.25rem 0.25rem 0; }
.badge { display: inline-block; border: 1px solid var(--strong-line); border-radius: 999px; padding: 0 0.5rem; font-size: 0.82em; font-weight: 600; white-space: nowrap; vertical-align: 0.05em; }
.ev-established, .ev-supported { border-style: solid; }
.ev-hypothesis { border-style: dashed; }
.ev-illustrative { border-style: dotted; }
.tier-produces { border-left: 4px solid var(--ok); padding-left: 0.6rem; }
.tier-same-stage { border-left: 4px dashed var(--strong-line); padding-left: 0.6rem; }
.fidelity { font-style: italic; }
.id { white-space: nowrap; font-variant-numeric: tabular-nums; }
.kv { display: grid; grid-template-columns: minmax(7rem, max-content) 1fr; gap: 0.25rem 1rem; }
.kv dt { font-weight: 600; }
.kv dd { margin: 0; }
@media (max-width: 30rem) { .kv { grid-template-columns: 1fr; } .kv dd { margin: 0 0 0.5rem; } }

.specimen { background: var(--panel); border: 1px dashed var(--strong-line); border-radius: 4px; padding: 0.75rem 1rem; margin: 0.5rem 0 1rem; white-space: pre-wrap; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
.specimen-label { font-size: 0.85em; color: var(--muted); font-style: italic; }
mark, mark.tell { background: transparent; color: inherit; border-bottom: 2px solid var(--accent); font-weight: 600; }
.diagram { margin: 1rem 0; max-width: 100%; overflow-x: auto; position: relative; }
.diagram svg { display: block; margin: 0 auto; }
.diagram figcaption { font-size: 0.9em; color: var(--muted); margin-top: 0.25rem; }

button, input, select, textarea { font: inherit; color: inherit; }
button, .button { display: inline-block; background: var(--panel); color: var(--fg); border: 1px solid var(--strong-line); border-radius: 4px; padding: 0.4rem 0.9rem; cursor: pointer; text-decoration: none; line-height: 1.4; }
button:hover, .button:hover { border-color: var(--fg); }
.button-primary { background: var(--link); color: var(--bg); border-color: var(--link); font-weight: 600; }
.button-primary:hover { border-color: var(--fg); text-decoration: underline; }
input[type="search"], input[type="text"], textarea, select { background: var(--bg); border: 1px solid var(--strong-line); border-radius: 4px; padding: 0.4rem 0.5rem; max-width: 100%; }
::placeholder { color: var(--muted); opacity: 1; }
label { font-weight: 600; }
.search-form { margin: 0.75rem 0 1rem; }
.search-form label { display: block; margin-bottom: 0.35rem; }
.search-row { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.search-row input { flex: 1 1 16rem; min-width: 0; }
.describe-form { margin: 0.75rem 0 1rem; }
.describe-form label { display: block; margin-bottom: 0.35rem; }
.describe-form textarea { display: block; width: 100%; margin-bottom: 0.35rem; }
.filters { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 1rem 0.75rem; margin: 1rem 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; }
.filters legend { font-weight: 600; padding: 0 0.25rem; }
.filters label { font-weight: 400; }
details { margin: 0.5rem 0 1rem; }
summary { cursor: pointer; font-weight: 600; }
input[type="date"] { background: var(--bg); border: 1px solid var(--strong-line); border-radius: 4px; padding: 0.35rem 0.5rem; max-width: 100%; }
.cv-what p { margin: 0.25rem 0; }
.cv-lead { border-left: 4px solid var(--accent); padding: 0.1rem 0.75rem; margin: 1rem 0; }
.cv-lead h2, .cv-lead h3 { margin-top: 0.4rem; }
.cv-lead p { margin: 0.4rem 0; }
.cv-case-fields { display: flex; flex-wrap: wrap; gap: 0.5rem 0.75rem; align-items: flex-end; }
.cv-case-fields .answer-field { flex: 1 1 9rem; min-width: 0; margin: 0; }
.cv-case-fields button { flex: 0 0 auto; }
.cv-case .answer-hint { margin: 0.25rem 0 0.5rem; }
.cv-case label { display: block; }
.cv-case select, .cv-case input { width: 100%; }
.cv-deadlines li { margin: 0.4rem 0; }
.cv-group h3, .cv-group h4 { margin: 0.8rem 0 0.2rem; }
.cv-items { list-style: none; padding: 0; margin: 0 0 0.5rem; }
.cv-items > li { border-top: 1px solid var(--line); margin: 0; }
.cv-items details { margin: 0; }
.cv-items summary { font-weight: 400; padding: 0.3rem 0; }
.cv-title { font-weight: 600; }
.cv-if { font-size: 0.9em; color: var(--muted); margin: 0 0 0.25rem; }
.cv-more { padding: 0 0 0.5rem 1rem; }
.cv-more p { margin: 0.3rem 0; }
.cv-found summary, .cv-full > summary { font-weight: 600; }
.cv-full { border-top: 1px solid var(--line); padding-top: 0.5rem; margin-top: 1.5rem; }
.record { border-top: 3px solid var(--strong-line); margin-top: 2rem; }
.record-events { padding-left: 1.2rem; }
.record-events li { margin: 0.3rem 0; }
.record-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.75rem 0; }
.record-add { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: flex-end; }
.record-add .answer-field { flex: 1 1 10rem; min-width: 0; }
.record-add select, .record-add input { width: 100%; }
sup.ref { font-size: 0.7em; line-height: 0; }
sup.ref a { text-decoration: none; }
.print-only, .record-print { display: none; }
@media print {
  @page { margin: 15mm; }
  body { font-size: 11pt; line-height: 1.4; color: #000; background: #fff; }
  header.site, footer.site, nav, .skip, .no-print, button, form, .cv-full { display: none !important; }
  .print-only { display: block; }
  body.print-record main > * { display: none !important; }
  body.print-record main > .record-print { display: block !important; }
  main { max-width: none; padding: 0; }
  a { color: #000; text-decoration: none; }
  details > summary { list-style: none; }
  h1 { font-size: 16pt; margin-top: 0; }
  h2 { font-size: 13pt; margin: 1rem 0 0.3rem; break-after: avoid; }
  li, p { break-inside: avoid; }
}
`;
