"""Measure text contrast in the browser: the element's colour against the colour(s) really behind it."""

# Walks up from the element, alpha-blending translucent backgrounds until an
# opaque one (or a gradient, whose every stop counts); returns the worst ratio.
WORST_CONTRAST_JS = """(el) => {
  const parse = (s) => { const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(parseFloat);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? (m[1].includes('%') ? p[3] / 100 : p[3]) : 1}; };
  const blend = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1});
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const layers = [];
  let bases = [{r: 255, g: 255, b: 255, a: 1}];
  for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
    const style = getComputedStyle(node);
    const image = style.backgroundImage;
    if (image && image.includes('gradient')) {
      const stops = (image.match(/rgba?\\([^)]+\\)/g) || []).map(parse).filter(Boolean);
      if (stops.length) {
        bases = stops.map((c) => blend(c, {r: 255, g: 255, b: 255, a: 1}));
        break;
      }
    }
    const color = parse(style.backgroundColor);
    if (color && color.a > 0) { layers.push(color); if (color.a >= 1) { bases = []; break; } }
  }
  const backgrounds = bases.length ? bases : [layers.pop()];
  const text = parse(getComputedStyle(el).color);
  let worst = Infinity;
  for (const base of backgrounds) {
    let bg = base;
    for (let i = layers.length - 1; i >= 0; i--) bg = blend(layers[i], bg);
    worst = Math.min(worst, ratio(blend(text, bg), bg));
  }
  return worst;
}"""


# The focus ring (outline) of the element that has focus against every background behind it:
# the outline is drawn outside the element (outline-offset), so what it sits on is the parent's
# background, alpha-blended down the ancestors like above; a gradient counts with every stop.
FOCUS_RING_CONTRAST_JS = """(el) => {
  const parse = (s) => { const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(parseFloat);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? (m[1].includes('%') ? p[3] / 100 : p[3]) : 1}; };
  const blend = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1});
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const own = getComputedStyle(el);
  if (own.outlineStyle === 'none' || parseFloat(own.outlineWidth) < 2) return {ratio: 0, ring: 'none'};
  const ring = parse(own.outlineColor);
  const layers = [];
  let bases = [{r: 255, g: 255, b: 255, a: 1}];
  for (let node = el.parentElement; node && node.nodeType === 1; node = node.parentElement) {
    const style = getComputedStyle(node);
    const image = style.backgroundImage;
    if (image && image.includes('gradient')) {
      bases = (image.match(/rgba?\\([^)]+\\)/g) || []).map(parse).map((c) => blend(c, {r: 255, g: 255, b: 255, a: 1}));
      break;
    }
    const color = parse(style.backgroundColor);
    if (color && color.a > 0) { layers.push(color); if (color.a >= 1) { bases = []; break; } }
  }
  const backgrounds = bases.length ? bases : [layers.pop()];
  let worst = Infinity;
  for (const base of backgrounds) {
    let bg = base;
    for (let i = layers.length - 1; i >= 0; i--) bg = blend(layers[i], bg);
    worst = Math.min(worst, ratio(blend(ring, bg), bg));
  }
  return {ratio: worst, ring: own.outlineColor};
}"""
