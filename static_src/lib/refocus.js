// The second half of lib/mount.jsx's keepFocus, fetched only once a stand-in has had the focus or was typed in
// (page budget). What was typed in the stand-in's controls `before` goes to the island's matching ones (the same
// id, else the same name, else the same place among the controls `after`: the island's come in the stand-in's
// order), as if typed there, whether or not the focus is still in it. And the commit that swapped the stand-in
// `held` was in for the island dropped the focus to the page's start, so it goes to the island's matching
// control, with its caret. Not if the focus has gone somewhere since (Tab on, past the form): it stays there.
export function refocus(held, before, after) {
  const sameName = (c, o) => c.name === o.name && (!/^(radio|checkbox)$/.test(c.type) || c.value === o.value);
  const twinOf = (o) => after.find((c) => (o.id ? c.id === o.id : o.name && sameName(c, o))) || after[before.indexOf(o)];
  for (const typed of before) {
    const twin = twinOf(typed);
    // its onChange takes a value set past React's own setter; a select or a box ticked is not carried (no defaultValue
    // differs from its value)
    if (twin && typed.value !== (typed.defaultValue ?? typed.value) && twin.value !== typed.value) {
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(twin), "value").set.call(twin, typed.value);
      twin.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
  if (!held || document.activeElement !== document.body) return;
  const twin = twinOf(held);
  if (!twin) return;
  twin.focus();
  if (held.selectionStart != null && twin.selectionStart != null) {
    twin.setSelectionRange(held.selectionStart, held.selectionEnd, held.selectionDirection);
  }
}
