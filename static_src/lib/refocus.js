// The second half of lib/mount.jsx's keepFocus, fetched only once a stand-in has had the focus (page budget):
// the commit that swapped the stand-in `held` was in for the island dropped the focus to the page's start,
// so it goes to the island's matching control (the same id, else the same name, else the same place among
// the controls `after`: the island's come in the stand-in's order `before`), with what was typed there and
// its caret. Not if the focus has gone somewhere since.
export function refocus(held, before, after) {
  if (document.activeElement !== document.body) return;
  const sameName = (c) => c.name === held.name && (!/^(radio|checkbox)$/.test(c.type) || c.value === held.value);
  const twin = after.find((c) => (held.id ? c.id === held.id : held.name && sameName(c))) || after[before.indexOf(held)];
  if (!twin) return;
  // what was typed, as if typed in the island: its onChange takes a value set past React's own setter
  if (held.value !== (held.defaultValue ?? held.value) && twin.value !== held.value) {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(twin), "value").set.call(twin, held.value);
    twin.dispatchEvent(new Event("input", { bubbles: true }));
  }
  twin.focus();
  if (held.selectionStart != null && twin.selectionStart != null) {
    twin.setSelectionRange(held.selectionStart, held.selectionEnd, held.selectionDirection);
  }
}
