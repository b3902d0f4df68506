// The one check before a stored URL becomes an href or src in an island:
// http(s) with a host, or a path on this site; anything else gives "".
// Mirrors shop/validation.py's url_problem (the server refuses such values
// on the way in; this keeps an old or odd value from ever running).
const INVISIBLE = /[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\\]/;
const ABSOLUTE = /^https?:\/\/[^/?#@]+(?:[/?#]|$)/i;

export function safeUrl(value, { allowRelative = true } = {}) {
  if (typeof value !== "string") return "";
  const url = value.trim();
  if (!url || INVISIBLE.test(url)) return "";
  if (allowRelative && url.startsWith("/") && !url.startsWith("//")) return url;
  return ABSOLUTE.test(url) ? url : "";
}
