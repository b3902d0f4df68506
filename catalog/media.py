"""Product pictures in media storage: one check of type and size, one naming, one save.

Staff uploads (the dashboard) and the importer's downloads (fetched through its
polite session) both end here. The type is read from the file's first bytes,
never from its name or a Content-Type header; SVG is refused (it can carry script).
Its header is then read by Pillow (never the pixels): bytes that only begin like a
picture are refused, and so is a picture of more than MAX_IMAGE_PIXELS, which a few
kilobytes can announce and every shopper's browser would unpack (a decompression bomb).
"""

import logging
import secrets
import warnings

from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.utils.text import slugify
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

from shop.errors import ShopError

logger = logging.getLogger(__name__)

MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000  # 40 megapixels, 160 MB once a browser unpacks it
# what a download may announce; the bytes decide in the end
IMAGE_CONTENT_TYPES = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"}
UPLOAD_FOLDER = "products"
IMPORT_FOLDER = "products/imported"
_SIGNATURES = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpg", b"GIF87a": "gif", b"GIF89a": "gif"}
_KINDS = ("jpg", "png", "webp", "gif")
_PILLOW_FORMATS = {"jpg": "JPEG", "png": "PNG", "webp": "WEBP", "gif": "GIF"}


class ImageRejected(ShopError):
    """A picture the shop will not keep (too big, or not a JPEG, PNG, GIF or WebP)."""


class ImageNotStored(ShopError):
    """A good picture the media storage could not keep (a full disk, a folder that cannot be written): the
    server's fault, not the picture's, so a 503 that names it; the same picture goes once the disk is fixed."""

    status = 503


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
    pixels = _pixels(content, kind) if kind is not None else None
    content.seek(0)
    if pixels is None:
        raise ImageRejected(_("Please upload a JPEG, PNG, GIF or WebP image"), field="image")
    if pixels > MAX_IMAGE_PIXELS:
        raise ImageRejected(_("The image must be 40 megapixels or smaller (for example 8000 x 5000)"),
                            field="image")
    stem = slugify(stem)[:40] or "image"
    name = f"{folder}/{stem}-{secrets.token_hex(4)}.{kind}" if unique else f"{folder}/{stem}.{kind}"
    return default_storage.url(_store(name, content))


def _store(name: str, content: "File[bytes]") -> str:
    """Save `content` as `name` (or the free name storage picks); on a full disk or an unwritable folder
    remove what was half-written and raise ImageNotStored. A truncated file would stay otherwise, and the
    importer, which finds its pictures again by name (image_stored), would show it on the product for ever."""
    was_there = default_storage.exists(name)
    try:
        return default_storage.save(name, content)
    except OSError as exc:
        logger.error("picture %s not stored: %s", name, exc)
        if not was_there:  # a kept picture of that name is left alone: storage wrote under another name
            try:
                default_storage.delete(name)
            except OSError:
                logger.exception("half-written picture %s could not be removed", name)
        raise ImageNotStored(_("The picture could not be stored: the server's disk is full or its media folder "
                               "cannot be written. Nothing was changed; tell whoever runs the shop's server."),
                             field="image") from None


def _pixels(content: "File[bytes]", kind: str) -> int | None:
    """Width x height its header gives, read as the kind its first bytes name; None when it is not one."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(content, formats=[_PILLOW_FORMATS[kind]]) as picture:
                width, height = picture.size
    except Image.DecompressionBombError:
        return MAX_IMAGE_PIXELS + 1
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        return None
    return width * height


def image_stored(*, stem: str, folder: str) -> str | None:
    """The URL of a picture saved before as `folder/stem.ext` (`unique=False`), or None."""
    stem = slugify(stem)[:40] or "image"
    for kind in _KINDS:
        name = f"{folder}/{stem}.{kind}"
        if default_storage.exists(name):
            return default_storage.url(name)
    return None
