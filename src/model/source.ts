// How a source reads where the shared bibliography leaves a field empty. The copy in content/sources/
// mirrors the bibliography exactly, nulls included (its 2026-11-27 revision left finding, verified_how,
// and for some entries title and venue, empty on eight corrected entries); every surface reads those
// fields through these helpers, so the wording lives here once.
import type { Source } from './schemas.ts';

/** Said where the bibliography records no finding for a source. */
const NO_FINDING = 'The shared bibliography records no finding for this source, so the atlas rests no claim on it; read the original.';
/** Said where the bibliography does not say how an entry was verified. */
const NO_VERIFICATION = 'The shared bibliography does not say how this entry was verified.';

export const sourceTitle = (s: Pick<Source, 'title' | 'cite'>): string => s.title ?? s.cite;
export const sourceFinding = (s: Pick<Source, 'finding'>): string => s.finding ?? NO_FINDING;
export const sourceVenue = (s: Pick<Source, 'venue'>): string => s.venue ?? '';
export const sourceVerifiedHow = (s: Pick<Source, 'verified_how'>): string => s.verified_how ?? NO_VERIFICATION;
