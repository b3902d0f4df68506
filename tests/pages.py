"""Pages and messages as a test reads them: without the parts that differ on every render.

A CSRF token, a CSP nonce or a signature is random text, so it spells a short name now and then (a CSRF
token holds "Bob" about once in four thousand). A check that a name is absent, or that two renders
match, reads the text through `without_random_parts`."""

import re

RANDOM_PART = re.compile(r'(name="csrfmiddlewaretoken" value="|nonce="|/track/)[^"\s]+')


def without_random_parts(text: str) -> str:
    """`text` with every CSRF token, nonce and signed tracking token emptied (the markup around it stays)."""
    return RANDOM_PART.sub(r"\1", text)
