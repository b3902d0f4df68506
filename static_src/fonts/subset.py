"""Cut the Arabic heading face down to the Arabic block the shop writes in.

    .venv/bin/python static_src/fonts/subset.py

@fontsource/noto-kufi-arabic's "arabic" file (44 KB) also carries the Persian and Urdu extensions
and the presentation forms; an Egyptian shop's headings use the basic Arabic block only, and
what falls outside the unicode-range in css/fonts.css is drawn in the system's Arabic face.
The result (about 17 KB) is committed beside this script so that a build needs no Python step;
run it again after upgrading the npm package. fontTools comes with WeasyPrint (requirements.txt).
Noto Kufi Arabic is under the SIL Open Font License 1.1, which allows subsetting.
"""

from pathlib import Path

from fontTools import subset

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1] / "node_modules/@fontsource/noto-kufi-arabic/files/noto-kufi-arabic-arabic-700-normal.woff2"
TARGET = HERE / "noto-kufi-arabic-700-arabic-core.woff2"
# keep in step with the unicode-range of "Nile Kufi" in css/fonts.css
UNICODES = "U+0600-06FF,U+200C-200E,U+2010-2011,U+204F,U+2E41"


def main():
    subset.main([str(SOURCE), f"--unicodes={UNICODES}", "--layout-features=*", "--flavor=woff2",
                 f"--output-file={TARGET}"])
    print(f"{TARGET.name}: {TARGET.stat().st_size} bytes (from {SOURCE.stat().st_size})")


if __name__ == "__main__":
    main()
