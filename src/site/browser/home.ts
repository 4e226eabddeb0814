// The home page's "Describe what happened" box: straight into the analysis, with the words carried over in
// the address's fragment (#text=…), which the browser keeps to itself. Without this script the form still
// works: it sends ?text= to the analyze page, which moves the words into the fragment.
import { SITE } from '../paths.ts';
import { fragmentOf } from './lib/analyze-state.ts';
import { byId } from './lib/dom.ts';

const form = byId<HTMLFormElement>('form-describe');
form.addEventListener('submit', (event) => {
  const box = form.querySelector('textarea');
  const text = box?.value.trim() ?? '';
  if (text === '') return;
  event.preventDefault();
  location.assign(`${SITE.analyze}#${fragmentOf({ text, probes: [] })}`);
});
