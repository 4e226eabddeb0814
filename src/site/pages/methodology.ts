// The methodology page (/methodology/): the same text `hoba methodology` prints and the get_methodology
// tool returns (src/analysis/methodology.ts), its Markdown sections rendered to HTML at build time, with
// a table of contents, and every vocabulary as a table whose rows can be linked to (termAnchor).
import { Marked, type Tokens } from 'marked';
import type { Registry } from '../../registry/registry.ts';
import { methodology } from '../../analysis/methodology.ts';
import type { Methodology } from '../../analysis/schemas.ts';
import { escapeHtml, html, Raw } from '../html.ts';
import { page } from '../layout.ts';
import { SITE, browsePath } from '../paths.ts';
import { KINDS } from '../../model/index.ts';

/** The vocabularies of the page, in the order shown, each with its anchor prefix and its heading. */
const VOCABULARY_ANCHORS = {
  kinds: 'kind',
  stages: 'stage',
  relations: 'relation',
  evidence_levels: 'evidence',
  fidelities: 'fidelity',
  actor: 'actor',
  nature: 'nature',
  visibility: 'visibility',
  removability: 'removability',
  verdicts: 'verdict',
  effect_levels: 'effect',
  intervention_actors: 'intervention-actor',
  jurisdictions: 'jurisdiction',
  viewpoints: 'viewpoint',
  topics: 'topic',
} as const;
export type Vocabulary = keyof typeof VOCABULARY_ANCHORS;

/** The URL of a vocabulary's table on the methodology page: vocabularyAnchor('topics') → /methodology/#vocab-topic. */
export const vocabularyAnchor = (vocabulary: Vocabulary) => `${SITE.methodology}#vocab-${VOCABULARY_ANCHORS[vocabulary]}`;

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Markdown → HTML for one section. The sections' text is the atlas's own, but it quotes content (titles of
 * baselines), so raw HTML in it is escaped rather than passed through. Headings inside a section sit
 * below the section's h2 and get ids prefixed with the section's.
 */
function markdown(sectionId: string): Marked {
  return new Marked({
    gfm: true,
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(text);
      },
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        const level = Math.min(6, depth + 2);
        return `<h${level} id="${sectionId}-${slug(inner)}">${inner}</h${level}>\n`;
      },
    },
  });
}

function renderSection(section: Methodology['sections'][number]): Raw {
  return new Raw(markdown(section.id).parse(section.body, { async: false }) as string);
}

interface VocabTable {
  key: Vocabulary;
  title: string;
  caption: string;
  rows: Array<{ id: string; meaning: string /** Shown under the term (two columns stay readable on a phone). */; detail?: Raw }>;
}

function vocabularyTables(m: Methodology): VocabTable[] {
  const v = m.vocabularies;
  const terms = (key: Vocabulary, title: string, caption: string, list: ReadonlyArray<{ id: string; meaning: string }>): VocabTable => ({
    key,
    title,
    caption,
    rows: list.map((t) => ({ id: t.id, meaning: t.meaning })),
  });
  return [
    {
      key: 'kinds',
      title: 'Kinds of entity',
      caption: 'Kinds of entity, their ID prefix and what each is',
      rows: v.kinds.map((k) => ({ id: k.id, detail: html`IDs <code>${k.prefix}-001</code>…`, meaning: k.meaning })),
    },
    terms('stages', 'Stages of the funnel', 'Stages, in funnel order', v.stages),
    {
      key: 'relations',
      title: 'Relations (typed edges)',
      caption: 'Relations of the graph: from which kind to which, and what each means',
      rows: v.relations.map((r) => ({ id: r.id, detail: html`${r.from} → ${r.to}`, meaning: r.meaning })),
    },
    terms('evidence_levels', 'Evidence levels', 'Evidence levels, strongest first', v.evidence_levels),
    terms('fidelities', 'Emission fidelity', 'Fidelity of an emission: how faithfully an observation reflects the mechanism', v.fidelities),
    terms('actor', 'Facet: actor', 'Mechanism facet actor: who or what drives it', v.facets.actor),
    terms('nature', 'Facet: nature', 'Mechanism facet nature: what kind of process it is', v.facets.nature),
    terms('visibility', 'Facet: visibility', 'Mechanism facet visibility: whether the candidate can see it', v.facets.visibility),
    terms('removability', 'Facet: removability', 'Mechanism facet removability: who can remove or work around it', v.facets.removability),
    terms('verdicts', 'Verdicts', 'Verdicts of an explanation', v.verdicts),
    terms('effect_levels', 'Intervention effect', 'What the evidence says about whether an intervention works', v.effect_levels),
    terms('intervention_actors', 'Intervention actors', 'Who can make an intervention', v.intervention_actors),
    terms('jurisdictions', 'Jurisdictions', 'Jurisdictions of the law notes', v.jurisdictions),
    terms('viewpoints', 'Perspectives', 'Viewpoints of a mechanism’s perspectives', v.viewpoints),
    terms('topics', 'Topics', 'Coverage topics', v.topics),
  ];
}

function vocabularyTable(t: VocabTable): Raw {
  const prefix = VOCABULARY_ANCHORS[t.key];
  const captionId = `${prefix}-table`;
  // The wrapper scrolls a wide table on a phone; tabindex lets a keyboard user scroll it too.
  return html`<h3 id="vocab-${prefix}">${t.title}</h3>
<div class="table-wrap" role="region" aria-labelledby="${captionId}" tabindex="0">
<table class="terms">
<caption class="sub" id="${captionId}">${t.caption}</caption>
<thead><tr><th scope="col">Term</th><th scope="col">Meaning</th></tr></thead>
<tbody>
${t.rows.map(
  (r) =>
    html`<tr id="${prefix}-${r.id}"><th scope="row"><code>${r.id}</code>${r.detail ? html`<br><span class="small muted">${r.detail}</span>` : ''}</th><td>${r.meaning}</td></tr>\n`,
)}</tbody>
</table>
</div>
`;
}

export function methodologyPage(reg: Registry): string {
  const m = methodology(reg);
  const tables = vocabularyTables(m);
  const hedges = m.vocabularies.hedges;
  return page(reg, {
    title: 'Methodology',
    path: SITE.methodology,
    description:
      'How to read the atlas: the HOBA protocol, tiers, probes, evidence levels, emission fidelity, mechanism facets, the rules of inference and every vocabulary.',
    main: html`<h1>${m.title}</h1>
<p>${m.summary}</p>
<p class="muted small">Content version ${m.registry_version}. The same text is <code>hoba methodology</code> on the command line and the <code>get_methodology</code> tool of the MCP server.</p>
<nav class="toc" aria-labelledby="toc-title">
<h2 id="toc-title">On this page</h2>
<ol>
${m.sections.map((s) => html`<li><a href="#${s.id}">${s.title}</a></li>\n`)}<li><a href="#vocabularies">Vocabularies</a>: ${tables.map(
      (t, i) => html`${i ? ', ' : ''}<a href="#vocab-${VOCABULARY_ANCHORS[t.key]}">${t.title.replace(/^Facet: /, '').toLowerCase()}</a>`,
    )}, <a href="#vocab-hedges">qualitative words</a></li>
</ol>
</nav>
${m.sections.map(
  (s) => html`<section aria-labelledby="${s.id}">
<h2 id="${s.id}">${s.title}</h2>
${renderSection(s)}</section>
`,
)}
<section aria-labelledby="vocabularies">
<h2 id="vocabularies">Vocabularies</h2>
<p>Every value a field of the atlas can take, with what it means. Each kind has its own pages: ${KINDS.map(
      (k, i) => html`${i ? ', ' : ''}<a href="${browsePath(k)}">${k}</a>`,
    )}.</p>
${tables.map(vocabularyTable)}
<h3 id="vocab-hedges">Qualitative words</h3>
<p>The words the atlas allows when it qualifies a claim, and where (the validator enforces it):</p>
<dl class="kv">
<dt>Never used</dt><dd>Likelihood: ${hedges.likelihood.join(', ')}.</dd>
<dt>With a source</dt><dd>Frequency, only where the entity cites a source for the rate: ${hedges.frequency.join(', ')}.</dd>
<dt>Always allowed</dt><dd>Possibility, which claims no rate: ${hedges.possibility.join(', ')}.</dd>
</dl>
</section>
<p class="notice">${m.legal_notice}</p>`,
  });
}
