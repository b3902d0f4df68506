"""Announcements section: the storefront's announcement bars (list, create, edit, delete)."""

from datetime import timedelta

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.api.fields import ColourField, DayOrDateTimeField
from backoffice.marketing import announcement_create, announcement_delete, announcement_update
from shop.models import Announcement, AnnouncementArabicMissing

DEFAULT_RUN = timedelta(days=30)


class AnnouncementSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    title = serializers.CharField(max_length=200)
    content = serializers.CharField(max_length=2000)
    link = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    link_label = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    title_ar = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    content_ar = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    link_label_ar = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    # an announcement with no Arabic text: hidden on Arabic pages, or shown in English there
    arabic_missing = serializers.ChoiceField(choices=AnnouncementArabicMissing.choices, required=False,
                                             default=AnnouncementArabicMissing.HIDE)
    display_start_date = DayOrDateTimeField(required=False)
    display_end_date = DayOrDateTimeField(required=False, end_of_day=True)
    banner_color = ColourField(required=False, default="#dc2626")
    text_color = ColourField(required=False, default="#ffffff")
    is_active = serializers.BooleanField(required=False, default=True)
    is_main = serializers.BooleanField(required=False, default=False)
    is_live = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField(read_only=True)

    def get_is_live(self, announcement) -> bool:
        """Whether the storefront shows it now (active and within its dates)."""
        now = timezone.now()
        return bool(
            announcement.is_active
            and announcement.display_start_date <= now <= announcement.display_end_date
        )

    def validate(self, data):
        instance = self.instance
        start = data.get("display_start_date") or (instance.display_start_date if instance else None)
        end = data.get("display_end_date") or (instance.display_end_date if instance else None)
        if not instance:  # the default run: 30 days from today
            start = start or timezone.now()
            end = end or start + DEFAULT_RUN
            data["display_start_date"], data["display_end_date"] = start, end
        if end <= start:
            raise serializers.ValidationError(
                {"display_end_date": _("The end date must be after the start date")}
            )
        return data


class AnnouncementListApi(StaffApi):
    area = "coupons"  # DECISIONS: "coupons, announcements" share one row

    @extend_schema(responses=AnnouncementSerializer(many=True))
    def get(self, request):
        return Response(AnnouncementSerializer(Announcement.objects.all(), many=True).data)

    @extend_schema(request=AnnouncementSerializer, responses={201: AnnouncementSerializer})
    def post(self, request):
        data = AnnouncementSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        announcement = announcement_create(actor=request.user, **data.validated_data)
        return Response(AnnouncementSerializer(announcement).data, status=201)


class AnnouncementDetailApi(StaffApi):
    area = "coupons"

    @extend_schema(request=AnnouncementSerializer, responses=AnnouncementSerializer)
    def put(self, request, announcement_id):
        announcement = get_object_or_404(Announcement, pk=announcement_id)
        data = AnnouncementSerializer(announcement, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        announcement = announcement_update(actor=request.user, announcement=announcement, **data.validated_data)
        return Response(AnnouncementSerializer(announcement).data)

    @extend_schema(responses={204: None})
    def delete(self, request, announcement_id):
        announcement = get_object_or_404(Announcement, pk=announcement_id)
        announcement_delete(actor=request.user, announcement=announcement)
        return Response(status=204)


urlpatterns = [
    path("admin/announcements", AnnouncementListApi.as_view(), name="admin-announcements"),
    path("admin/announcements/<id:announcement_id>", AnnouncementDetailApi.as_view(),
         name="admin-announcement-detail"),
]
