"""Product pictures in media storage: one check of type and size, one naming, one save.

Staff uploads (the dashboard) and the importer's downloads (fetched through its
polite session) both end here. The type is read from the file's first bytes,
never from its name or a Content-Type header; SVG is refused (it can carry script).
"""

import secrets

from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.utils.text import slugify
from django.utils.translation import gettext as _

from shop.errors import ShopError

MAX_IMAGE_BYTES = 5 * 1024 * 1024
# what a download may announce; the bytes decide in the end
IMAGE_CONTENT_TYPES = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"}
UPLOAD_FOLDER = "products"
IMPORT_FOLDER = "products/imported"
_SIGNATURES = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpg", b"GIF87a": "gif", b"GIF89a": "gif"}
_KINDS = ("jpg", "png", "webp", "gif")


class ImageRejected(ShopError):
    """A picture the shop will not keep (too big, or not a JPEG, PNG, GIF or WebP)."""


def image_kind(head: bytes) -> str | None:
    """The file extension the first bytes of a picture prove, or None."""
    kind = next((k for signature, k in _SIGNATURES.items() if head.startswith(signature)), None)
    if kind is None and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        kind = "webp"
    return kind


def image_save(content: "bytes | File[bytes]", *, stem: str, folder: str = UPLOAD_FOLDER, unique: bool = True) -> str:
    """Check a picture (an uploaded file or downloaded bytes), store it and return its URL.

    The name is `folder/stem-<random>.ext`, or `folder/stem.ext` when `unique` is
    False (the importer names a picture after its source, so a re-import finds it).
    """
    if isinstance(content, bytes):
        content = ContentFile(content)
    if content.size > MAX_IMAGE_BYTES:
        raise ImageRejected(_("The image must be 5 MB or smaller"), field="image")
    head = content.read(16)
    content.seek(0)
    kind = image_kind(head)
    if kind is None:
        raise ImageRejected(_("Please upload a JPEG, PNG, GIF or WebP image"), field="image")
    stem = slugify(stem)[:40] or "image"
    name = f"{folder}/{stem}-{secrets.token_hex(4)}.{kind}" if unique else f"{folder}/{stem}.{kind}"
    return default_storage.url(default_storage.save(name, content))


def image_stored(*, stem: str, folder: str) -> str | None:
    """The URL of a picture saved before as `folder/stem.ext` (`unique=False`), or None."""
    stem = slugify(stem)[:40] or "image"
    for kind in _KINDS:
        name = f"{folder}/{stem}.{kind}"
        if default_storage.exists(name):
            return default_storage.url(name)
    return None
