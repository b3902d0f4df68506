"""Paging and search shared by the section tables of the admin API.

Every list answers `{"results", "count", "page", "pageSize", "totalPages"}`.
"""

from functools import reduce
from operator import or_

from django.core.paginator import Paginator
from django.db.models import Q
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from accounts.roles import bulk_cap

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100

PAGING_PARAMETERS = [
    OpenApiParameter("page", int, description="1-based page number"),
    OpenApiParameter("pageSize", int, description=f"rows per page, at most {MAX_PAGE_SIZE} (Support: fewer)"),
    OpenApiParameter("search", str, description="free-text search"),
]


def _positive_int(value, default):
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if number > 0 else default


def paginate(request, queryset, serialize):
    """Cut `queryset` to the requested page; `serialize(rows)` turns rows into dicts.

    A page holds at most MAX_PAGE_SIZE rows, fewer for a role with a smaller cap (accounts.roles.BULK_CAPS:
    Support); a larger `pageSize` is cut to the cap, and the answer's `pageSize` says what was served,
    its `maxPageSize` the cap."""
    cap = bulk_cap(request.user, "page_size", MAX_PAGE_SIZE)
    size = min(_positive_int(request.query_params.get("pageSize"), DEFAULT_PAGE_SIZE), cap)
    paginator = Paginator(queryset, size)
    page = paginator.get_page(_positive_int(request.query_params.get("page"), 1))
    return {
        "results": serialize(list(page.object_list)),
        "count": paginator.count,
        "page": page.number,
        "page_size": size,
        "total_pages": paginator.num_pages,
        "max_page_size": cap,  # the page-size menu offers no more than this role is served
    }


def search_filter(queryset, text, fields):
    """Keep rows where any of `fields` contains `text` (case-insensitive)."""
    text = (text or "").strip()
    if not text:
        return queryset
    return queryset.filter(reduce(or_, (Q(**{f"{field}__icontains": text}) for field in fields)))


def page_serializer(name, row_serializer):
    """An OpenAPI-only serializer for one page of `row_serializer` rows."""
    return type(
        name,
        (serializers.Serializer,),
        {
            "results": row_serializer(many=True),
            "count": serializers.IntegerField(),
            "page": serializers.IntegerField(),
            "page_size": serializers.IntegerField(),
            "total_pages": serializers.IntegerField(),
            "max_page_size": serializers.IntegerField(),
        },
    )
