"""Pages for visitors with a session: the shared stored body, their own parts stitched in.

A page stored for visitors without a session (shop.page_cache) is the same for
everyone except a few *visitor parts*. Templates mark each one:

    {% visitor_part "cart-badge" %}<span …>{{ cart_count }}</span>{% endvisitor_part %}
    {% visitor_part "review-form" product.pk %}…{% endvisitor_part %}

A marked part renders as usual, between two short comments
(`<!--vp:shop/_header.html#cart-badge#-->…<!--/vp-->`) that tell the page cache where
it is. When a visitor with a session (a cart, a sign-in) asks for a page that
is stored, the view is not run: each part is rendered again from its own
template nodes with *this* visitor's context (PART_CONTEXT below) and put
into the stored body; the CSRF token and CSP nonce are filled in as for any
hit. Everything else (sessions, auth, CSRF, locale, maintenance) ran as usual
in the middleware, which is why stitching happens in the view decorator.

The stored body only ever comes from a visitor *without* a session, so it
holds no one's name, cart or token. Staff (whose pages differ in more places)
and pages without a stored copy are rendered as before.

Adding a part: wrap it in the template, and if it needs more than `user`,
`request` and the language, add what it needs to PART_CONTEXT.
"""

import functools
import re

from django import template
from django.template import Context
from django.template.loader import get_template
from django.utils.module_loading import import_string
from django.utils.translation import get_language, get_language_bidi

register = template.Library()

# The comments around a part in a rendered page: "<template>#<part>#<argument>".
_OPEN = "<!--vp:{}-->"
_CLOSE = "<!--/vp-->"
PART = re.compile(r"<!--vp:([^>]*)-->.*?<!--/vp-->", re.S)
_nodelists = {}  # (template name, part name) -> the part's template nodes, registered when parsed


# Each part: (what it needs beyond the common context of user, request, language
# and CSRF token: the dotted path of a function (request, argument) -> dict, named
# by path because the apps' views load this module through the page cache;
# whether a visitor who is not signed in sees the stored text, which was
# rendered for one, so that it need not be rendered again;
# and how it is kept, if it is: (the dotted path of a function (request, key,
# render) -> text that keeps it per visitor, whether the page's path is part of
# the key). accounts.user_cache.request_user_memo keeps a part that depends only on
# the signed-in user's row, their orders and the language until the user or their
# orders change; orders.cart.cart_memo one that depends only on the visitor's cart
# and the language until the cart changes.)
_USER = "accounts.user_cache.request_user_memo"
_CART = "orders.cart.cart_memo"
_GOVERNORATE = "catalog.views.delivery_estimate_memo"
PART_CONTEXT = {
    "account": (None, True, (_USER, False)),
    "account-menu": (None, True, (_USER, False)),
    "cart-badge": ("orders.cart.cart_badge_part", False, (_CART, False)),
    # whether they may review: bought and received (their orders); the login link names the path
    "review-form": ("catalog.views.review_form_part", True, (_USER, True)),
    # the shopper's governorate lives in the session, even a guest's; the text is the same for every
    # shopper of a governorate, so it is kept per governorate (and language, settings and day)
    "delivery-estimate": ("catalog.views.delivery_estimate_part", False, (_GOVERNORATE, False)),
}
_import = functools.cache(import_string)


class VisitorPartNode(template.Node):
    def __init__(self, template_name, name, arg, nodelist):
        self.template_name, self.name, self.arg, self.nodelist = template_name, name, arg, nodelist

    def render(self, context):
        arg = self.arg.resolve(context) if self.arg is not None else ""
        label = f"{self.template_name}#{self.name}#{arg}"
        return _OPEN.format(label) + self.nodelist.render(context) + _CLOSE


@register.tag
def visitor_part(parser, token):
    """{% visitor_part "name" [argument] %}…{% endvisitor_part %}: a part of the page that is the visitor's own."""
    bits = token.split_contents()
    if len(bits) not in (2, 3) or bits[1][0] not in "\"'":
        raise template.TemplateSyntaxError('usage: {% visitor_part "name" [argument] %}')
    name = bits[1][1:-1]
    if name not in PART_CONTEXT:
        raise template.TemplateSyntaxError(f"unknown visitor part {name!r}: add it to shop.stitch.PART_CONTEXT")
    arg = parser.compile_filter(bits[2]) if len(bits) == 3 else None
    nodelist = parser.parse(("endvisitor_part",))
    parser.delete_first_token()
    template_name = parser.origin.template_name if parser.origin else ""
    _nodelists[(template_name, name)] = nodelist
    return VisitorPartNode(template_name, name, arg, nodelist)


def render_part(request, label, stored, csrf_token):
    """One visitor part of a stored page rendered again for this visitor."""
    _extra, same_for_anonymous, kept = PART_CONTEXT[label.split("#", 2)[1]]
    if same_for_anonymous and not request.user.is_authenticated:
        return stored
    if kept is None:
        return _render_part(request, label, csrf_token)
    memo, with_path = kept
    key = ("visitor-part", label, get_language(), csrf_token, request.path if with_path else "")
    return _import(memo)(request, key, lambda: _render_part(request, label, csrf_token))


def _render_part(request, label, csrf_token):
    template_name, name, arg = label.split("#", 2)
    extra = PART_CONTEXT[name][0]
    if (template_name, name) not in _nodelists:
        get_template(template_name)  # parsing registers its parts
    nodelist = _nodelists[(template_name, name)]
    language = get_language()
    data = {
        "user": request.user, "request": request, "csrf_token": csrf_token,
        "LANG": language, "DIR": "rtl" if get_language_bidi() else "ltr",
        "OTHER_LANG": "en" if language == "ar" else "ar",
    }
    if extra is not None:
        data.update(import_string(extra)(request, arg))
    context = Context(data, autoescape=True)
    with context.bind_template(get_template(template_name).template):
        return _OPEN.format(label) + nodelist.render(context) + _CLOSE
