// The download directories as pages: /downloads/ (the latest set and every recorded release) and each
// set's own index, /downloads/latest/ and /downloads/<version>/, listing its files with what each holds,
// its size, its SHA-256 and its licence, as its manifest.json says them. The files themselves are made by
// src/publish/downloads.ts; these pages only read the manifest.
import type { DownloadManifest } from '../../publish/downloads.ts';
import { DOWNLOADS_BASE, downloadsUrl, LATEST, LICENCE_INFO } from '../../publish/downloads.ts';
import type { Registry } from '../../registry/registry.ts';
import { html } from '../html.ts';
import { page } from '../layout.ts';
import { SITE } from '../paths.ts';

/** A size in bytes, for people: 1,234 bytes; 12.3 KB; 4.5 MB. */
function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * Which licence a file of the set is under: the data and what describes it (the citation, the manifest,
 * the checksums) are the content, under the content licence; the JSON Schemas are generated from the
 * software's data model, under the software licence.
 */
function licenceOf(file: string, m: Pick<DownloadManifest, 'licences'>): keyof typeof LICENCE_INFO {
  return file.startsWith('schemas/') ? m.licences.software : m.licences.content;
}

/** The index page of one download set: /downloads/latest/ or /downloads/<version>/. */
export function downloadSetPage(reg: Registry, version: string, manifest: DownloadManifest): { url: string; html: string } {
  const base = downloadsUrl(version);
  const which =
    version === LATEST ? `the latest content (version ${manifest.registry_version})` : `content version ${manifest.registry_version}`;
  const files = [
    ...manifest.files,
    {
      file: 'manifest.json',
      bytes: undefined,
      sha256: undefined,
      description: 'This list, for machines: every other file with its media type, size, SHA-256 and columns, and the licences',
      media_type: 'application/json',
    },
    {
      file: 'SHA256SUMS',
      bytes: undefined,
      sha256: undefined,
      description: 'Every file’s SHA-256, manifest.json included, for sha256sum -c SHA256SUMS',
      media_type: 'text/plain',
    },
  ];
  const rows = files.map((f) => {
    const licence = LICENCE_INFO[licenceOf(f.file, manifest)];
    return html`<tr>
<td><a href="${base}${f.file}"><code>${f.file}</code></a></td>
<td>${f.description}</td>
<td>${f.bytes === undefined ? '' : size(f.bytes)}</td>
<td>${f.sha256 === undefined ? html`<span class="muted">in SHA256SUMS</span>` : html`<code class="hash">${f.sha256}</code>`}</td>
<td><a href="${licence.url}">${licence.name.replace(/^the /, '')}</a></td>
</tr>
`;
  });
  return {
    url: base,
    html: page(reg, {
      title: version === LATEST ? 'Downloads: the latest content' : `Downloads: version ${version}`,
      path: base,
      description: `Bulk downloads of ${which} of the ${manifest.name}: entities, graph, CSV, GraphML and JSON Schemas, with sizes, SHA-256 checksums and licences.`,
      main: html`<h1>Downloads: ${which}</h1>
<p>Released <time datetime="${manifest.released}">${manifest.released}</time>. ${manifest.licence_statement}
How to cite it: <a href="${base}${manifest.cite}"><code>${manifest.cite}</code></a>.</p>
<p>Check the files after downloading them with <code>sha256sum -c SHA256SUMS</code> in the folder that holds them.
<a href="${base}manifest.json"><code>manifest.json</code></a> lists the same files for programs, with each CSV file’s columns.
${version === LATEST ? html`Each recorded release keeps its own copy: see <a href="${DOWNLOADS_BASE}/">all downloads</a>.` : html`The newest content is under <a href="${downloadsUrl()}">the latest downloads</a>.`}</p>
<div class="table-wrap"><table>
<caption>The files of this set</caption>
<thead><tr><th scope="col">File</th><th scope="col">What it holds</th><th scope="col">Size</th><th scope="col">SHA-256</th><th scope="col">Licence</th></tr></thead>
<tbody>
${rows}</tbody>
</table></div>
<p>The REST API serves the same content document by document: see the <a href="${SITE.developers}">developer page</a>.</p>`,
    }),
  };
}

/** /downloads/: the latest set and every recorded release, newest first. */
export function downloadsHubPage(
  reg: Registry,
  sets: ReadonlyArray<{ version: string; manifest: DownloadManifest }>,
): { url: string; html: string } {
  const url = `${DOWNLOADS_BASE}/`;
  const items = sets.map(
    ({ version, manifest }) =>
      html`<li><a href="${downloadsUrl(version)}">${version === LATEST ? `The latest content (version ${manifest.registry_version})` : `Version ${version}`}</a>, released <time datetime="${manifest.released}">${manifest.released}</time>: ${manifest.files.length + 2} files, ${size(manifest.files.reduce((n, f) => n + f.bytes, 0))} before the manifest.</li>\n`,
  );
  return {
    url,
    html: page(reg, {
      title: 'Downloads',
      path: url,
      description: `Bulk downloads of the ${reg.manifest.name}: the latest content and every recorded release, each with sizes, SHA-256 checksums and licences.`,
      main: html`<h1>Downloads</h1>
<p>The whole atlas as files: every entity (newline-delimited JSON), the graph (CSV and GraphML), the JSON Schemas of its records and how to cite it, with a manifest and SHA-256 checksums.
The latest set follows the content; each recorded release keeps its own, byte for byte.</p>
<ul>
${items}</ul>`,
    }),
  };
}
