"""Reviews section: moderation (approve or reject, respond, delete) at /api/reviews/admin.

Writes go through catalog.services, which keeps each product's rating and
review count right and records the staff member's audit entry.
"""

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.api.tables import PAGING_PARAMETERS, page_serializer, paginate, search_filter
from catalog.models import Review
from catalog.services import review_delete, review_reject, review_respond, review_set_approved
from shop.errors import ShopError

STATUSES = {
    "pending": Q(is_approved=False, is_rejected=False),
    "approved": Q(is_approved=True),
    "rejected": Q(is_approved=False, is_rejected=True),
}
SEARCH_FIELDS = ["title", "comment", "user_name", "user_email", "product__title", "product__slug"]


class ReviewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    product_id = serializers.IntegerField()
    product_title = serializers.CharField(source="product.title")
    product_slug = serializers.CharField(source="product.slug")
    user_name = serializers.CharField()
    user_email = serializers.EmailField()
    rating = serializers.IntegerField()
    title = serializers.CharField()
    comment = serializers.CharField()
    is_verified = serializers.BooleanField()
    is_approved = serializers.BooleanField()
    status = serializers.ChoiceField(choices=list(STATUSES), read_only=True)
    admin_response = serializers.CharField()
    created_at = serializers.DateTimeField()


def _review(review_id):
    return get_object_or_404(Review.objects.select_related("product"), pk=review_id)


def _fresh(review):
    return ReviewSerializer(Review.objects.select_related("product").get(pk=review.pk)).data


class ReviewListApi(StaffApi):
    area = "messages"  # DECISIONS: "messages, reviews" share one row

    class OutputSerializer(page_serializer("ReviewPage", ReviewSerializer)):
        class Meta:
            ref_name = "ReviewListOutput"

        status_counts = serializers.DictField(child=serializers.IntegerField())

    @extend_schema(
        parameters=[*PAGING_PARAMETERS, OpenApiParameter("status", str, enum=list(STATUSES))],
        responses=OutputSerializer,
    )
    def get(self, request):
        reviews = search_filter(Review.objects.select_related("product").order_by("-created_at", "-pk"),
                                request.query_params.get("search"), SEARCH_FIELDS)
        status = request.query_params.get("status") or "all"
        if status != "all":
            if status not in STATUSES:
                raise ShopError(_("Unknown review status"), field="status")
            reviews = reviews.filter(STATUSES[status])
        page = paginate(request, reviews, lambda rows: ReviewSerializer(rows, many=True).data)
        page["status_counts"] = Review.objects.aggregate(
            **{name: Count("pk", filter=rule) for name, rule in STATUSES.items()})
        return Response(page)


class ReviewApproveApi(StaffApi):
    area = "messages"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "ReviewApproveInput"

        is_approved = serializers.BooleanField()

    @extend_schema(request=InputSerializer, responses=ReviewSerializer)
    def put(self, request, review_id):
        review = _review(review_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approved = data.validated_data["is_approved"]
        review_set_approved(review=review, approved=approved, actor=request.user)
        return Response(_fresh(review))


class ReviewRejectApi(StaffApi):
    area = "messages"

    @extend_schema(request=None, responses=ReviewSerializer, summary="Reject a review (kept, never shown)")
    def put(self, request, review_id):
        review = _review(review_id)
        review_reject(review=review, actor=request.user)
        return Response(_fresh(review))


class ReviewResponseApi(StaffApi):
    area = "messages"
    area_actions = {"PUT": "reply"}  # a public answer to a customer is a reply

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "ReviewResponseInput"

        admin_response = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)

    @extend_schema(request=InputSerializer, responses=ReviewSerializer)
    def put(self, request, review_id):
        review = _review(review_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        review_respond(review=review, response=data.validated_data["admin_response"], actor=request.user)
        return Response(_fresh(review))


class ReviewDeleteApi(StaffApi):
    area = "messages"

    @extend_schema(responses={204: None})
    def delete(self, request, review_id):
        review = _review(review_id)
        review_delete(review=review, actor=request.user)
        return Response(status=204)


urlpatterns = [
    path("reviews/admin", ReviewListApi.as_view(), name="admin-reviews"),
    path("reviews/admin/<id:review_id>/approve", ReviewApproveApi.as_view(), name="admin-review-approve"),
    path("reviews/admin/<id:review_id>/reject", ReviewRejectApi.as_view(), name="admin-review-reject"),
    path("reviews/admin/<id:review_id>/response", ReviewResponseApi.as_view(), name="admin-review-response"),
    path("reviews/admin/<id:review_id>", ReviewDeleteApi.as_view(), name="admin-review-delete"),
]
