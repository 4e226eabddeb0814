// The light suffix stemmer the search index and the situation reader share, so that "reposted",
// "reposting" and "reposts" meet "repost" in both. No imports: the reader's start-up path stays small.

/**
 * A deliberately small stemmer: enough that "reposted", "reposting" and "reposts" meet "repost", and
 * applied the same way to documents and queries, so consistency matters more than linguistics.
 */
export function stem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);
  // A doubled final consonant left by a suffix ("stopped" → "stopp") is undoubled, except l, s and z.
  if (s !== w && /([^aeiouylsz])\1$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('e') && s.length > 4) s = s.slice(0, -1);
  return s;
}
