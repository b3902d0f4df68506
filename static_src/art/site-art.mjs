// The storefront's own pictures, generated at build time (no downloads, no words): the hero's
// tea estate in the Kenyan highlands at golden hour with a cup of tea, and the About page's
// estate at dawn. Layered hills with rows of tea bushes, haze, mist, shade trees, soft light and
// film grain give a photographic feel. A seeded random generator keeps every build identical.

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const f = (n) => Math.round(n * 10) / 10;

// a hill's ridge: a smooth curve across the picture, `base` px down, swinging by `swing`
function ridge(rand, width, base, swing, steps = 6) {
  const points = Array.from({ length: steps + 1 }, (_, i) => [(width * i) / steps, base + (rand() - 0.5) * swing]);
  let d = `M${f(points[0][0])} ${f(points[0][1])}`;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    d += `C${f(x0 + (x1 - x0) / 2)} ${f(y0)} ${f(x0 + (x1 - x0) / 2)} ${f(y1)} ${f(x1)} ${f(y1)}`;
  }
  return { d, points };
}

function yAt(points, x) {
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    if (x <= x1) {
      const t = (x - x0) / (x1 - x0);
      const s = t * t * (3 - 2 * t); // the same ease as the curve's handles, near enough
      return y0 + (y1 - y0) * s;
    }
  }
  return points[points.length - 1][1];
}

// rows of tea bushes that follow the hill's shape, closer together towards the back
function teaRows(points, width, top, height, colour, rand, rowGap) {
  const rows = [];
  for (let offset = rowGap; offset < height; offset += rowGap * (1 + offset / height)) {
    let d = "";
    for (let x = -20; x <= width + 20; x += 24) {
      const y = yAt(points, Math.max(0, Math.min(width, x))) + offset + Math.sin(x / 90 + offset) * 3;
      d += `${d ? "L" : "M"}${f(x)} ${f(y)}`;
    }
    const thickness = Math.max(2, (rowGap * 0.45 * (offset + height)) / height);
    rows.push(`<path d="${d}" stroke="${colour}" stroke-width="${f(thickness)}" stroke-linecap="round" fill="none" opacity=".55"/>`);
  }
  return rows.join("");
}

function tree(x, y, scale, colour) {
  return `<g transform="translate(${f(x)} ${f(y)}) scale(${f(scale)})">
<path d="M-3 0 0-46M0-30 14-50M0-36-16-52" stroke="${colour}" stroke-width="5" stroke-linecap="round" fill="none"/>
<ellipse cx="0" cy="-56" rx="46" ry="12" fill="${colour}"/><ellipse cx="-18" cy="-62" rx="26" ry="9" fill="${colour}"/>
<ellipse cx="20" cy="-61" rx="24" ry="8" fill="${colour}"/></g>`;
}

function defs({ sky, sun, seed }) {
  return `<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">${sky.map((c, i) => `<stop offset="${f(i / (sky.length - 1))}" stop-color="${c}"/>`).join("")}</linearGradient>
<radialGradient id="sun" cx="${sun[0]}" cy="${sun[1]}" r="55%"><stop offset="0" stop-color="#fff6d8" stop-opacity=".95"/><stop offset=".18" stop-color="#ffe3a1" stop-opacity=".6"/><stop offset="1" stop-color="#ffe3a1" stop-opacity="0"/></radialGradient>
<filter id="haze" x="-5%" y="-20%" width="110%" height="140%"><feGaussianBlur stdDeviation="3"/></filter>
<filter id="mist" x="-20%" y="-100%" width="140%" height="300%"><feGaussianBlur stdDeviation="22"/></filter>
<filter id="steam" x="-50%" y="-20%" width="200%" height="140%"><feGaussianBlur stdDeviation="7"/></filter>
<filter id="grain"><feTurbulence type="fractalNoise" baseFrequency=".8" numOctaves="2" stitchTiles="stitch" seed="${seed}"/><feColorMatrix values="0 0 0 0 .5  0 0 0 0 .45  0 0 0 0 .35  0 0 0 .1 0"/></filter>
<radialGradient id="vignette" cx="50%" cy="45%" r="75%"><stop offset=".55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#0b1a12" stop-opacity=".38"/></radialGradient>
<linearGradient id="liquor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#d9822b"/><stop offset="1" stop-color="#6e260b"/></linearGradient>
<linearGradient id="ledge" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6b4428"/><stop offset="1" stop-color="#3b2414"/></linearGradient>
</defs>`;
}

// a glass of Kenyan tea on a wooden ledge in the foreground, steam catching the light
function cup(cx, cy) {
  return `<ellipse cx="${cx + 20}" cy="${cy + 122}" rx="170" ry="22" fill="#1c1008" opacity=".45" filter="url(#haze)"/>
<path d="M${cx - 118} ${cy - 70}Q${cx - 112} ${cy + 100} ${cx - 66} ${cy + 112}H${cx + 66}Q${cx + 112} ${cy + 100} ${cx + 118} ${cy - 70}Z" fill="#fff" opacity=".22" stroke="#fff" stroke-opacity=".85" stroke-width="4"/>
<path d="M${cx - 110} ${cy - 38}Q${cx - 104} ${cy + 92} ${cx - 62} ${cy + 104}H${cx + 62}Q${cx + 104} ${cy + 92} ${cx + 110} ${cy - 38}Z" fill="url(#liquor)"/>
<ellipse cx="${cx}" cy="${cy - 38}" rx="110" ry="18" fill="#e39a45"/>
<ellipse cx="${cx - 34}" cy="${cy - 41}" rx="46" ry="6" fill="#fff" opacity=".45"/>
<path d="M${cx + 116} ${cy - 30}c74 -4 74 96 0 90" stroke="#fff" stroke-opacity=".8" stroke-width="14" fill="none"/>
<path d="M${cx - 94} ${cy - 56}Q${cx - 90} ${cy + 50} ${cx - 62} ${cy + 90}" stroke="#fff" stroke-opacity=".6" stroke-width="9" fill="none" stroke-linecap="round"/>
${[-40, 0, 44].map((dx, i) => `<path d="M${cx + dx} ${cy - 70}c${-30 + i * 20} -50 ${40 - i * 10} -80 ${4 - i * 6} -140s${-36 + i * 10} -70 ${i * 8} -120" stroke="#fff" stroke-width="${14 - i * 2}" fill="none" opacity=".42" stroke-linecap="round" filter="url(#steam)"/>`).join("")}`;
}

function estate({ width, height, seed, sky, sun, hills, mist, far, withCup }) {
  const rand = random(seed);
  const parts = [defs({ sky, sun, seed }), `<rect width="${width}" height="${height}" fill="url(#sky)"/>`,
    `<rect width="${width}" height="${height}" fill="url(#sun)"/>`];
  // far mountains in haze
  far.forEach((colour, i) => {
    const { d } = ridge(rand, width, height * (0.3 + i * 0.06), height * 0.12, 5);
    parts.push(`<path d="${d}V${height}H0Z" fill="${colour}" filter="url(#haze)"/>`);
  });
  parts.push(`<ellipse cx="${width * 0.5}" cy="${height * 0.44}" rx="${width * 0.7}" ry="${height * 0.05}" fill="${mist}" opacity=".7" filter="url(#mist)"/>`);
  // tea hills, back to front: each lighter in the back (air), richer in front
  hills.forEach(([fill, rows], i) => {
    const base = height * (0.46 + i * 0.12);
    const { d, points } = ridge(rand, width, base, height * (0.08 + i * 0.02), 4 + i);
    parts.push(`<path d="${d}V${height}H0Z" fill="${fill}"/>`);
    parts.push(teaRows(points, width, base, height - base, rows, rand, 6 + i * 5));
    if (i < hills.length - 1) {
      for (let t = 0; t < (i < 2 ? 2 : 0); t++) {
        const x = width * (0.15 + rand() * 0.7);
        parts.push(tree(x, yAt(points, x) + 6, 0.5 + i * 0.35, rows));
      }
      parts.push(`<ellipse cx="${width * rand()}" cy="${base + 20}" rx="${width * 0.35}" ry="${height * 0.025}" fill="${mist}" opacity=".45" filter="url(#mist)"/>`);
    }
  });
  if (withCup) {
    parts.push(`<path d="M0 ${height * 0.86}Q${width * 0.5} ${height * 0.83} ${width} ${height * 0.85}V${height}H0Z" fill="url(#ledge)"/>`);
    parts.push(`<path d="M0 ${height * 0.86}Q${width * 0.5} ${height * 0.83} ${width} ${height * 0.85}" stroke="#c58a55" stroke-width="3" fill="none" opacity=".6"/>`);
    for (let g = 0; g < 9; g++) {
      const y = height * (0.88 + g * 0.014);
      parts.push(`<path d="M0 ${f(y)}Q${f(width * rand())} ${f(y + (rand() - 0.5) * 14)} ${width} ${f(y + (rand() - 0.5) * 8)}" stroke="#2a180c" stroke-width="${f(1 + rand() * 2)}" fill="none" opacity=".35"/>`);
    }
    parts.push(cup(width * 0.68, height * 0.72));
  }
  parts.push(`<rect width="${width}" height="${height}" filter="url(#grain)"/>`, `<rect width="${width}" height="${height}" fill="url(#vignette)"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" preserveAspectRatio="xMidYMid slice">${parts.join("")}</svg>`;
}

export function siteArt() {
  return {
    // golden hour over the estate, a glass of tea in front: the home page's hero
    "hero.svg": estate({
      width: 1000, height: 900, seed: 7, withCup: true, sun: ["72%", "30%"], mist: "#fff3da",
      sky: ["#f2c27a", "#f8dca6", "#fbeed2"], far: ["#b9b79a", "#97a07e"],
      hills: [["#7d9a4a", "#5d7c32"], ["#5f8a3c", "#426d28"], ["#3f7232", "#2b5622"], ["#2c5a27", "#1d4119"]],
    }),
    // the same hills at dawn, cooler and misty: the About page
    "estate-dawn.svg": estate({
      width: 1200, height: 600, seed: 23, withCup: false, sun: ["28%", "34%"], mist: "#ffffff",
      sky: ["#c9d8d2", "#e9e6d6", "#f6ecd9"], far: ["#a9b7ad", "#8fa294"],
      hills: [["#86a07a", "#6a875e"], ["#5f8a52", "#487140"], ["#3f7240", "#2d5a30"]],
    }),
  };
}
