// What the graph explorer's address fragment names (#M-004: the node in focus). A fragment is whatever the
// address bar holds, so it may be malformed percent-encoding (#%E0%A4%A): decoding it must not throw, or
// the explorer never draws (the analyze page guards its fragment the same way, analyze-state.ts).

/** The decoded fragment without its "#", or '' when it is not valid percent-encoding. */
export function focusOfFragment(hash: string): string {
  try {
    return decodeURIComponent(hash.replace(/^#/, ''));
  } catch {
    return '';
  }
}
