// The browse pages' filters: shows the form (hidden without JavaScript, when the full list is the page),
// applies every change at once by hiding the items that do not match, announces how many are shown, and
// keeps the choice in the query string so that a filtered view can be shared or reloaded.
import { matches, queryOf, shownText, stateFromQuery, type FilterState } from './lib/filters.ts';

function start(): void {
  const form = document.querySelector<HTMLFormElement>('form.filter-form');
  const list = document.querySelector<HTMLElement>('.entity-list');
  const status = document.getElementById('shown');
  if (!form || !list || !status) return;
  const selects = [...form.querySelectorAll<HTMLSelectElement>('select[name]')];
  const names = selects.map((s) => s.name);
  const words = form.querySelector<HTMLInputElement>('input[name="q"]');
  const items = [...list.querySelectorAll<HTMLElement>(':scope > li')];
  const many = list.dataset['many'] ?? 'items';
  const texts = items.map((li) => li.textContent ?? '');

  const read = (): FilterState => ({
    filters: Object.fromEntries(selects.map((s) => [s.name, s.value])),
    words: words?.value ?? '',
  });

  const apply = (state: FilterState, updateUrl: boolean) => {
    let shown = 0;
    items.forEach((li, i) => {
      const ok = matches(li.dataset, texts[i]!, state);
      li.hidden = !ok;
      if (ok) shown++;
    });
    status.textContent = shownText(shown, items.length, many);
    if (updateUrl) history.replaceState(null, '', `${location.pathname}${queryOf(state, names)}${location.hash}`);
  };

  // A shared link or a reload: the query string sets the form.
  const initial = stateFromQuery(location.search, names);
  for (const s of selects) {
    const v = initial.filters[s.name] ?? '';
    if ([...s.options].some((o) => o.value === v)) s.value = v;
  }
  if (words) words.value = initial.words;

  form.hidden = false;
  // Open on a wide screen, or when a shared link already filters; on a phone the list comes first.
  const details = form.querySelector('details');
  if (details) details.open = matchMedia('(min-width: 40rem)').matches || queryOf(initial, names) !== '';
  form.addEventListener('input', () => apply(read(), true));
  form.addEventListener('change', () => apply(read(), true));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply(read(), true);
  });
  form.addEventListener('reset', () => {
    // The reset clears the controls after this event; apply once it has.
    setTimeout(() => apply(read(), true), 0);
  });
  apply(read(), false);
}

start();
