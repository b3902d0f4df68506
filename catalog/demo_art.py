"""Generated, download-free pictures for the demo catalogue: per-product packaging art with no
words (the pictures show on Arabic pages too), in three shots per tea: the pack in a studio, a
cup of the brewed tea before it, and the leaves with what flavours them.

Everything is SVG drawn from the product's category, flavour notes and a random generator seeded
with its slug, so the same product always gets the same pictures. Soft studio light, shadows and a
fine film grain make them read as product photographs rather than flat icons.
"""

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

SIZE = 800

# the cup's colour by category: the brewed tea, not the pack
LIQUOR = {
    "black-tea": ("#7a2e0e", "#b4531a"), "green-tea": ("#8f8a1c", "#c8bd45"), "herbal-tea": ("#a8461b", "#d9822b"),
    "white-tea": ("#c59a3c", "#e7cd7a"), "oolong-tea": ("#9a4e12", "#d08a32"),
    "health-wellness": ("#9b6a12", "#d3a53c"),
    "luxury-pyramid": ("#7d3210", "#bb6420"), "attitude-teas": ("#8e2a1a", "#cf5a2c"),
    "cold-brew": ("#b2561c", "#eaa04a"),
    "conservation-teas": ("#6e2a0e", "#a9501c"), "speciality-teas": ("#83300f", "#c0601f"),
    "string-tag-pyramid": ("#762c0d", "#b0521b"), "pick-n-mix": ("#9c2f2a", "#d8664a"),
    "luxury-gifts": ("#7a2e0e", "#b4531a"),
}
# which shape of pack each category comes in
SHAPE = {
    "black-tea": "box", "green-tea": "box", "health-wellness": "box", "attitude-teas": "box",
    "conservation-teas": "box",
    "herbal-tea": "box", "white-tea": "tin", "oolong-tea": "tin", "speciality-teas": "box", "luxury-pyramid": "pouch",
    "string-tag-pyramid": "pouch", "cold-brew": "pouch", "pick-n-mix": "gift", "luxury-gifts": "gift",
}
# flavour words -> the ingredient drawn on the pack's medallion and beside the leaves
MOTIFS = [
    (("lemon", "lime", "citrus", "bergamot"), "citrus"), (("mint", "peppermint", "spearmint"), "mint"),
    (("jasmine", "camomile", "floral", "lavender", "cornflower"), "flower"),
    (("rose", "hibiscus", "tart", "berry"), "hibiscus"),
    (("cinnamon", "clove", "cardamom", "spice", "ginger", "lemongrass", "ginseng"), "spice"),
    (("peach", "mango", "pineapple", "apricot", "apple", "strawberry", "mixed berries"), "fruit"),
]
FRUIT = {"peach": "#f29a5b", "mango": "#f5b031", "pineapple": "#f2c94c", "apricot": "#f0a04b", "apple": "#d9493b",
         "strawberry": "#d8324b", "mixed berries": "#7b2d6b"}


@dataclass
class Tea:
    slug: str
    category: str
    colour: str
    notes: list[str]

    @property
    def rng(self) -> random.Random:
        return random.Random(self.slug)

    @property
    def motif(self) -> str:
        words = " ".join(self.notes).lower()
        for keys, motif in MOTIFS:
            if any(key in words for key in keys):
                return motif
        return "leaf"

    @property
    def fruit_colour(self) -> str:
        words = " ".join(self.notes).lower()
        return next((colour for name, colour in FRUIT.items() if name in words), "#f29a5b")


def _mix(hex_a: str, hex_b: str, t: float) -> str:
    a = [int(hex_a[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(hex_b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def _defs(tea: Tea, *, backdrop: tuple[str, str] = ("#f7f1e6", "#e4d9c6")) -> str:
    """Shared gradients and filters: studio backdrop, grain, soft shadow, gold foil, pack shading."""
    dark, light = _mix(tea.colour, "#000000", .35), _mix(tea.colour, "#ffffff", .18)
    return f"""<defs>
<radialGradient id="studio" cx="50%" cy="38%" r="75%">
  <stop offset="0" stop-color="{backdrop[0]}"/>
  <stop offset="1" stop-color="{backdrop[1]}"/></radialGradient>
<linearGradient id="face" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="{light}"/>
  <stop offset=".55" stop-color="{tea.colour}"/>
  <stop offset="1" stop-color="{dark}"/></linearGradient>
<linearGradient id="side" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="{dark}"/>
  <stop offset="1" stop-color="{_mix(dark, '#000000', .3)}"/></linearGradient>
<linearGradient id="gold" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#f3dc8a"/>
  <stop offset=".45" stop-color="#c9a227"/>
  <stop offset=".7" stop-color="#e9cf6f"/>
  <stop offset="1" stop-color="#9c7a14"/></linearGradient>
<linearGradient id="sheen" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#fff" stop-opacity="0"/>
  <stop offset=".35" stop-color="#fff" stop-opacity=".28"/>
  <stop offset=".5" stop-color="#fff" stop-opacity="0"/></linearGradient>
<radialGradient id="shadow">
  <stop offset="0" stop-color="#3a2a18" stop-opacity=".45"/>
  <stop offset="1" stop-color="#3a2a18" stop-opacity="0"/></radialGradient>
<filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="6"/></filter>
<filter id="blur" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="9"/></filter>
<filter id="grain">
  <feTurbulence type="fractalNoise" baseFrequency=".85" numOctaves="2" stitchTiles="stitch"
    seed="{tea.rng.randint(1, 99)}"/>
  <feColorMatrix values="0 0 0 0 .5  0 0 0 0 .45  0 0 0 0 .4  0 0 0 .09 0"/></filter>
<radialGradient id="vignette" cx="50%" cy="45%" r="72%">
  <stop offset=".6" stop-color="#000" stop-opacity="0"/>
  <stop offset="1" stop-color="#000" stop-opacity=".22"/></radialGradient>
</defs>"""


def _finish() -> str:
    """Film grain and a vignette over the whole picture: the photographic look."""
    return (f'<rect width="{SIZE}" height="{SIZE}" filter="url(#grain)"/>'
            f'<rect width="{SIZE}" height="{SIZE}" fill="url(#vignette)"/>')


def _svg(body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" width="{SIZE}" height="{SIZE}">'
            f"{body}</svg>")


# ---- motifs: small drawings with no words, centred on (0, 0), about 100 px across ----

def _leaf(fill: str = "#3f7d3a", vein: str = "#cfe3b8", scale: float = 1.0, angle: float = 0, x: float = 0,
          y: float = 0) -> str:
    return (f'<g transform="translate({x:.1f} {y:.1f}) rotate({angle:.0f}) scale({scale:.2f})">'
            f'<path d="M0-48C30-30 34 14 0 48-34 14-30-30 0-48Z" fill="{fill}"/>'
            f'<path d="M0-40V44M0-14 14-26M0 4 16-8M0 22 12 12M0-14-14-26M0 4-16-8M0 22-12 12" stroke="{vein}" '
            f'stroke-width="2.5" fill="none" stroke-linecap="round"/></g>')


def _citrus(x: float = 0, y: float = 0, r: float = 44, colour: str = "#f2c230") -> str:
    segments = "".join(
        f'<path d="M0 0L{r * .78 * math.cos(a):.1f} {r * .78 * math.sin(a):.1f}A{r * .78:.1f} {r * .78:.1f} 0 0 1 '
        f'{r * .78 * math.cos(a + .9):.1f} {r * .78 * math.sin(a + .9):.1f}Z" fill="{_mix(colour, "#ffffff", .35)}" '
        f'stroke="#fffbe6" stroke-width="3"/>'
        for a in (i * 2 * math.pi / 7 for i in range(7)))
    return (f'<g transform="translate({x:.1f} {y:.1f})"><circle r="{r}" fill="{colour}"/>'
            f'<circle r="{r * .86:.1f}" fill="#fffbe6"/>{segments}</g>')


def _flower(x: float = 0, y: float = 0, r: float = 40, colour: str = "#fdfaf2", centre: str = "#e9b824",
            petals: int = 8) -> str:
    leaves = "".join(
        f'<ellipse rx="{r * .26:.1f}" ry="{r * .55:.1f}" cy="{-r * .5:.1f}" fill="{colour}" '
        f'stroke="{_mix(colour, "#000000", .12)}" '
        f'stroke-width="1.5" transform="rotate({i * 360 / petals:.0f})"/>' for i in range(petals))
    return f'<g transform="translate({x:.1f} {y:.1f})">{leaves}<circle r="{r * .28:.1f}" fill="{centre}"/></g>'


def _hibiscus(x: float = 0, y: float = 0, r: float = 42) -> str:
    petals = "".join(
        f'<path d="M0 0C{-r * .7:.1f} {-r * .4:.1f} {-r * .5:.1f} {-r * 1.1:.1f} 0 {-r:.1f}'
        f'C{r * .5:.1f} {-r * 1.1:.1f} {r * .7:.1f} {-r * .4:.1f} 0 0Z" '
        f'fill="#b3173d" stroke="#7e0f2b" stroke-width="2" transform="rotate({i * 72})"/>'
        for i in range(5))
    return (f'<g transform="translate({x:.1f} {y:.1f})">{petals}<circle r="{r * .18:.1f}" fill="#f7d24a"/>'
            f'<path d="M0 0 {r * .3:.1f} {-r * .55:.1f}" stroke="#f7d24a" stroke-width="3"/></g>')


def _spice(x: float = 0, y: float = 0, angle: float = -20) -> str:
    return (f'<g transform="translate({x:.1f} {y:.1f}) rotate({angle})">'
            f'<rect x="-60" y="-11" width="120" height="22" rx="10" fill="#8a4b22"/>'
            f'<path d="M-56-4H56M-56 5H56" stroke="#6b3615" stroke-width="3"/>'
            f'<rect x="-60" y="8" width="120" height="18" rx="9" fill="#a45c2b"/>'
            f'<g transform="translate(30 -36)"><path d="M0-16 4-5 16-4 7 4 10 16 0 9-10 16-7 4-16-4-4-5Z" '
            f'fill="#5e3a1c"/>'
            f'<circle r="4" fill="#3b2411"/></g></g>')


def _fruit(x: float = 0, y: float = 0, r: float = 40, colour: str = "#f29a5b") -> str:
    return (f'<g transform="translate({x:.1f} {y:.1f})"><circle r="{r}" fill="{colour}"/>'
            f'<circle cx="{-r * .3:.1f}" cy="{-r * .32:.1f}" r="{r * .32:.1f}" fill="#fff" opacity=".28"/>'
            f'<path d="M0 {-r:.1f}C4 {-r - 14:.1f} 10 {-r - 18:.1f} 16 {-r - 20:.1f}" stroke="#5a3b17" '
            f'stroke-width="4" fill="none"/>'
            f'{_leaf(scale=.34, angle=55, x=r * .45, y=-r - 10)}</g>')


def _motif(tea: Tea, *, x: float = 0, y: float = 0, scale: float = 1.0) -> str:
    drawing = {
        "leaf": lambda: _leaf(fill="#2f6f52") + _leaf(fill="#3f8a5f", scale=.7, angle=38, x=26, y=14),
        "citrus": lambda: _citrus(colour="#e9b824" if "lime" not in " ".join(tea.notes) else "#7fb03a"),
        "mint": lambda: _leaf(fill="#4f9d57", angle=-25, x=-14) + _leaf(fill="#63b36a", angle=25, x=16, scale=.85),
        "flower": lambda: _flower(),
        "hibiscus": lambda: _hibiscus(),
        "spice": lambda: _spice(x=0, y=8, angle=-18),
        "fruit": lambda: _fruit(colour=tea.fruit_colour),
    }[tea.motif]()
    return f'<g transform="translate({x:.1f} {y:.1f}) scale({scale:.2f})">{drawing}</g>'


def _pattern(tea: Tea, *, x: float, y: float, w: float, h: float) -> str:
    """A band of ornament across the pack front, chosen per product."""
    rng = tea.rng
    kind = rng.choice(["diamonds", "waves", "dots", "chevrons"])
    ink = _mix(tea.colour, "#ffffff", .32)
    parts = []
    if kind == "diamonds":
        for i in range(int(w // 24) + 1):
            cx = x + i * 24 + 12
            parts.append(f'<path d="M{cx} {y + 3}l9 {h / 2 - 3}-9 {h / 2 - 3}-9 {-(h / 2 - 3)}Z" fill="{ink}" '
                         f'opacity=".55"/>')
    elif kind == "waves":
        for row in range(3):
            yy = y + 6 + row * (h - 12) / 2
            d = f"M{x} {yy}" + "q6 -7 12 0t12 0" * (int(w // 24) + 1)
            parts.append(f'<path d="{d}" stroke="{ink}" stroke-width="2.5" fill="none" opacity=".6"/>')
    elif kind == "dots":
        for row in range(3):
            for i in range(int(w // 16) + 1):
                parts.append(f'<circle cx="{x + i * 16 + (8 if row % 2 else 0):.0f}" '
                             f'cy="{y + 6 + row * (h - 12) / 2:.0f}" '
                             f'r="2.6" fill="{ink}" opacity=".6"/>')
    else:
        for i in range(int(w // 22) + 1):
            cx = x + i * 22
            parts.append(f'<path d="M{cx} {y + h - 4}l11 {-(h - 8)} 11 {h - 8}" stroke="{ink}" stroke-width="2.5" '
                         f'fill="none" opacity=".6"/>')
    return (f'<clipPath id="band"><rect x="{x}" y="{y}" width="{w}" height="{h}"/></clipPath>'
            f'<g clip-path="url(#band)">{"".join(parts)}</g>')


def _medallion(tea: Tea, cx: float, cy: float, r: float) -> str:
    return (f'<circle cx="{cx}" cy="{cy}" r="{r + 8}" fill="url(#gold)"/>'
            f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="#fbf6ea"/>'
            f'<circle cx="{cx}" cy="{cy}" r="{r - 7}" fill="none" stroke="url(#gold)" stroke-width="2"/>'
            f'{_motif(tea, x=cx, y=cy, scale=r / 62)}')


# ---- packs, drawn standing on the floor line at y = 640 ----

def _box(tea: Tea) -> str:
    x, y, w, h, d = 250, 190, 270, 450, 70
    return (f'<ellipse cx="{x + w / 2 + 40}" cy="{y + h + 8}" rx="{w * .78}" ry="28" fill="url(#shadow)"/>'
            f'<path d="M{x + w} {y}l{d} -34v{h}l-{d} 34Z" fill="url(#side)"/>'
            f'<path d="M{x} {y}l{d} -34h{w}l-{d} 34Z" fill="{_mix(tea.colour, "#ffffff", .3)}"/>'
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="url(#face)"/>'
            f'<rect x="{x}" y="{y + 52}" width="{w}" height="34" fill="url(#gold)"/>'
            f'{_pattern(tea, x=x, y=y + h - 96, w=w, h=40)}'
            f'<rect x="{x}" y="{y + h - 50}" width="{w}" height="8" fill="url(#gold)"/>'
            f'{_medallion(tea, x + w / 2, y + 230, 78)}'
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="url(#sheen)"/>')


def _tin(tea: Tea) -> str:
    cx, top, w, h = 390, 200, 300, 440
    x = cx - w / 2
    return (f'<ellipse cx="{cx + 30}" cy="{top + h + 6}" rx="{w * .75}" ry="26" fill="url(#shadow)"/>'
            f'<path d="M{x} {top}v{h}a{w / 2} 34 0 0 0 {w} 0v{-h}Z" fill="url(#face)"/>'
            f'<path d="M{x} {top + 60}v{62}a{w / 2} 34 0 0 0 {w} 0v{-62}a{w / 2} 34 0 0 1 {-w} 0Z" fill="url(#gold)"/>'
            f'<path d="M{x - 6} {top - 6}v{58}a{w / 2 + 6} 36 0 0 0 {w + 12} 0v-58Z" fill="url(#gold)"/>'
            f'<ellipse cx="{cx}" cy="{top - 6}" rx="{w / 2 + 6}" ry="36" fill="#f1dc93"/>'
            f'<ellipse cx="{cx}" cy="{top - 8}" rx="{w / 2 - 18}" ry="24" fill="none" stroke="#b08a1c" '
            f'stroke-width="3"/>'
            f'{_medallion(tea, cx, top + 260, 76)}'
            f'<path d="M{x} {top}v{h}a{w / 2} 34 0 0 0 {w} 0v{-h}Z" fill="url(#sheen)"/>')


def _pouch(tea: Tea) -> str:
    x, top, w, h = 250, 170, 290, 470
    return (f'<ellipse cx="{x + w / 2 + 30}" cy="{top + h + 6}" rx="{w * .75}" ry="26" fill="url(#shadow)"/>'
            f'<path d="M{x + 10} {top + 40}Q{x} {top + h - 40} {x + 20} {top + h}H{x + w - 20}Q{x + w} {top + h - 40} '
            f'{x + w - 10} {top + 40}Z" fill="url(#face)"/>'
            f'<path d="M{x + 6} {top}H{x + w - 6}V{top + 44}H{x + 6}Z" fill="{_mix(tea.colour, "#000000", .2)}"/>'
            + "".join(f'<path d="M{x + 6 + i * 12} {top}l6 -10 6 10" fill="{_mix(tea.colour, "#000000", .2)}"/>'
                      for i in range(int((w - 12) / 12)))
            + f'<rect x="{x + 6}" y="{top + 16}" width="{w - 12}" height="5" fill="url(#gold)"/>'
            f'<path d="M{x + 14} {top + 96}H{x + w - 14}" stroke="url(#gold)" stroke-width="14"/>'
            f'{_medallion(tea, x + w / 2, top + 250, 80)}'
            f'{_pattern(tea, x=x + 16, y=top + h - 110, w=w - 32, h=36)}'
            f'<path d="M{x + 10} {top + 40}Q{x} {top + h - 40} {x + 20} {top + h}H{x + w - 20}Q{x + w} {top + h - 40} '
            f'{x + w - 10} {top + 40}Z" fill="url(#sheen)"/>')


def _gift(tea: Tea) -> str:
    x, y, w, h, d = 170, 330, 420, 300, 80
    return (f'<ellipse cx="{x + w / 2 + 40}" cy="{y + h + 8}" rx="{w * .7}" ry="30" fill="url(#shadow)"/>'
            f'<path d="M{x + w} {y}l{d} -50v{h}l-{d} 50Z" fill="url(#side)"/>'
            f'<path d="M{x} {y}l{d} -50h{w}l-{d} 50Z" fill="{_mix(tea.colour, "#ffffff", .28)}"/>'
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="url(#face)"/>'
            f'{_pattern(tea, x=x, y=y + 20, w=w, h=36)}'
            f'<rect x="{x + w / 2 - 20}" y="{y}" width="40" height="{h}" fill="url(#gold)"/>'
            f'<path d="M{x + w / 2 - 20 + d / 2} {y - 25}h40l-{d / 2} 25h-40Z" fill="#e9cf6f"/>'
            f'<path d="M{x + w / 2 + 20} {y - 20}c-90-80-150-10-40 10M{x + w / 2 + 20} {y - 20}c90-90 160-10 40 14" '
            f'stroke="url(#gold)" stroke-width="22" fill="none" stroke-linecap="round"/>'
            f'<circle cx="{x + w / 2 + 20}" cy="{y - 20}" r="18" fill="#b08a1c"/>'
            f'{_medallion(tea, x + w * .26, y + 170, 58)}{_medallion(tea, x + w * .76, y + 170, 58)}'
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="url(#sheen)"/>')


def _pack(tea: Tea) -> str:
    return {"box": _box, "tin": _tin, "pouch": _pouch, "gift": _gift}[SHAPE.get(tea.category, "box")](tea)


def _floor() -> str:
    return (f'<rect width="{SIZE}" height="{SIZE}" fill="url(#studio)"/>'
            f'<rect y="600" width="{SIZE}" height="200" fill="#d8cab2" opacity=".45"/>'
            f'<rect y="596" width="{SIZE}" height="10" fill="#fff" opacity=".25" filter="url(#soft)"/>')


def pack_shot(tea: Tea) -> str:
    """The pack alone in a studio, a sprig of tea leaves at its foot."""
    rng = tea.rng
    sprig = "".join(_leaf(fill=rng.choice(["#2f6f52", "#3f8a5f", "#1f5a3f"]), scale=rng.uniform(.55, .8),
                          angle=rng.uniform(-80, 80), x=110 + i * 34, y=700 + rng.uniform(-8, 8)) for i in range(3))
    # the pack fills the frame (it is the card picture), a little below the middle
    pack = f'<g transform="translate(400 430) scale(1.2) translate(-420 -410)">{_pack(tea)}</g>'
    return _svg(_defs(tea) + _floor() + pack + sprig + _finish())


def _cup(cx: float, cy: float, liquor: tuple[str, str]) -> str:
    dark, light = liquor
    return (f'<ellipse cx="{cx}" cy="{cy + 128}" rx="190" ry="34" fill="url(#shadow)"/>'
            f'<ellipse cx="{cx}" cy="{cy + 112}" rx="170" ry="34" fill="#f4f1ea" stroke="#d9d2c4" stroke-width="3"/>'
            f'<ellipse cx="{cx}" cy="{cy + 106}" rx="110" ry="20" fill="#e6e0d3"/>'
            f'<path d="M{cx - 120} {cy - 60}Q{cx - 116} {cy + 100} {cx - 70} {cy + 108}H{cx + 70}Q{cx + 116} '
            f'{cy + 100} {cx + 120} {cy - 60}Z" '
            f'fill="#ffffff" opacity=".35" stroke="#ffffff" stroke-opacity=".8" stroke-width="3"/>'
            f'<path d="M{cx - 112} {cy - 30}Q{cx - 108} {cy + 94} {cx - 68} {cy + 100}H{cx + 68}Q{cx + 108} {cy + 94} '
            f'{cx + 112} {cy - 30}Z" fill="url(#liquor)"/>'
            f'<ellipse cx="{cx}" cy="{cy - 30}" rx="112" ry="20" fill="{light}"/>'
            f'<ellipse cx="{cx - 30}" cy="{cy - 33}" rx="50" ry="7" fill="#fff" opacity=".35"/>'
            f'<path d="M{cx + 118} {cy - 20}c70 -6 70 90 0 84" stroke="#ffffff" stroke-opacity=".8" stroke-width="14" '
            f'fill="none"/>'
            f'<path d="M{cx - 96} {cy - 50}Q{cx - 92} {cy + 60} {cx - 64} {cy + 92}" stroke="#fff" '
            f'stroke-opacity=".55" stroke-width="8" fill="none" stroke-linecap="round"/>'
            f'<defs><linearGradient id="liquor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{light}"/>'
            f'<stop offset="1" stop-color="{dark}"/></linearGradient></defs>')


def _steam(cx: float, top: float, rng: random.Random) -> str:
    return "".join(
        f'<path d="M{cx + dx:.0f} {top}c{rng.uniform(-30, 30):.0f} -40 {rng.uniform(20, 40):.0f} -70 0 -120'
        f's{rng.uniform(-40, -10):.0f} -60 0 -110" stroke="#fff" stroke-width="{rng.uniform(10, 16):.0f}" fill="none" '
        f'opacity=".45" stroke-linecap="round" filter="url(#blur)"/>' for dx in (-40, 5, 45))


def cup_shot(tea: Tea) -> str:
    """A cup of the brewed tea in front, the pack out of focus behind it."""
    rng = tea.rng
    behind = f'<g transform="translate(140 -60) scale(.9)" filter="url(#blur)" opacity=".9">{_pack(tea)}</g>'
    liquor = LIQUOR.get(tea.category, LIQUOR["black-tea"])
    extras = (_motif(tea, x=640, y=690, scale=.9) if tea.motif != "leaf"
              else _leaf(fill="#2f6f52", x=640, y=690, angle=40, scale=.9))
    return _svg(_defs(tea, backdrop=("#fbf4e6", "#dccbb0")) + _floor() + behind + _cup(360, 520, liquor)
                + _steam(360, 450, rng) + extras + _finish())


def leaves_shot(tea: Tea) -> str:
    """From above: a bowl of the loose leaves on linen, the flavours scattered around it."""
    rng = tea.rng
    base = {"green-tea": ["#5b7d2c", "#6f8f35", "#4a6a25"], "white-tea": ["#b8b39a", "#cfc9ae", "#9f9a80"],
            "herbal-tea": ["#7b8f3a", "#a36a2a", "#5d7a2a"], "cold-brew": ["#5b3a20", "#74492a", "#3f2816"]}
    colours = base.get(tea.category, ["#3b2716", "#523521", "#2c1d10"])
    flakes = []
    for _ in range(320):
        a, r = rng.uniform(0, 2 * math.pi), 196 * math.sqrt(rng.random())
        x, y = 400 + r * math.cos(a), 400 + r * math.sin(a)
        flakes.append(f'<ellipse cx="{x:.0f}" cy="{y:.0f}" rx="{rng.uniform(8, 16):.0f}" ry="{rng.uniform(3, 6):.1f}" '
                      f'fill="{rng.choice(colours)}" transform="rotate({rng.uniform(0, 180):.0f} {x:.0f} {y:.0f})"/>')
    around = []
    for i, angle in enumerate((-2.4, -0.6, 0.9, 2.5)):
        x, y = 400 + 300 * math.cos(angle), 400 + 300 * math.sin(angle)
        if tea.motif == "leaf" or i % 2:
            around.append(_leaf(fill=rng.choice(["#2f6f52", "#3f8a5f"]), x=x, y=y, angle=rng.uniform(0, 360),
                                scale=1.1))
        else:
            around.append(_motif(tea, x=x, y=y, scale=1.2))
    linen = "".join(f'<path d="M0 {y}H{SIZE}" stroke="#fff" stroke-opacity=".12" stroke-width="2"/>'
                    for y in range(0, SIZE, 9))
    return _svg(_defs(tea, backdrop=("#efe6d6", "#cdbb9c"))
                + f'<rect width="{SIZE}" height="{SIZE}" fill="url(#studio)"/>' + linen
                + '<circle cx="418" cy="424" r="262" fill="#3a2a18" opacity=".25" filter="url(#blur)"/>'
                + f'<circle cx="400" cy="400" r="250" fill="#f7f4ee"/><circle cx="400" cy="400" r="226" '
                  f'fill="{_mix(tea.colour, "#f7f4ee", .75)}"/>'
                + f'<circle cx="400" cy="400" r="214" fill="{colours[0]}" opacity=".55"/>' + "".join(flakes)
                + '<path d="M230 240A240 240 0 0 1 420 160" stroke="#fff" stroke-opacity=".7" stroke-width="10" '
                  'fill="none" stroke-linecap="round"/>'
                + "".join(around) + _finish())


def product_pictures(*, slug: str, category: str, colour: str, notes: Iterable[str]) -> dict[str, str]:
    """{file name: SVG text} of the three pictures of one demo tea: pack, cup, leaves."""
    tea = Tea(slug=slug, category=category, colour=colour, notes=list(notes))
    return {f"{slug}.svg": pack_shot(tea), f"{slug}-cup.svg": cup_shot(tea), f"{slug}-leaves.svg": leaves_shot(tea)}
