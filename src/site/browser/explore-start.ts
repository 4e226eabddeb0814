/// <reference lib="dom" />
// What the explorer page (/explore/) loads first: a few lines that decide when to draw the graph. The
// drawing (explore.js: Cytoscape.js and the explorer, about 140 KB compressed, and seconds of work on a
// phone's processor) starts at once on a screen wide enough to use it, or when the address names an
// entity to focus on (/explore/#M-001); on a narrow screen it starts when the reader asks for it, and the
// page reads as it does without JavaScript until then (its links and the JSON). Lighthouse's mobile
// audit (bench/lighthouse.ts) measures that page.
import { scriptPath } from '../paths.ts';

/** Wide enough to use the drawing: a tablet, a laptop or larger, not a phone. */
const WIDE = '(min-width: 48em)';

function draw(): void {
  // A path, not a module specifier: the bundle beside this one, loaded when the drawing is wanted.
  void import(/* @vite-ignore */ scriptPath('explore'));
}

function start(): void {
  const root = document.getElementById('explorer');
  if (!root) return;
  if (matchMedia(WIDE).matches || location.hash.length > 1) {
    draw();
    return;
  }
  const offer = document.getElementById('explore-draw-offer');
  const button = document.getElementById('explore-draw');
  if (!offer || !button) {
    draw();
    return;
  }
  offer.hidden = false;
  button.addEventListener('click', () => {
    button.setAttribute('disabled', '');
    button.textContent = 'Drawing the graph…';
    draw();
  });
  // Coming to an entity later (a link to /explore/#M-001 followed on this page) draws at once.
  addEventListener('hashchange', draw, { once: true });
}

start();
