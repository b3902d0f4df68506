"""Messages section: contact messages with a status filter, status changes and e-mailed replies."""

from django.db.models import Count
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.api.tables import PAGING_PARAMETERS, page_serializer, paginate, search_filter
from backoffice.inbox import contact_message_reply, contact_message_set_status
from shop.errors import ShopError
from shop.models import ContactMessage, ContactMessageStatus


class MessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.EmailField()
    subject = serializers.CharField()
    message = serializers.CharField()
    status = serializers.CharField()
    reply_message = serializers.CharField()
    replied_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class MessageListApi(StaffApi):
    area = "messages"

    class OutputSerializer(page_serializer("ContactMessagePage", MessageSerializer)):
        class Meta:
            ref_name = "MessageListOutput"

        status_counts = serializers.DictField(child=serializers.IntegerField())

    @extend_schema(
        parameters=[*PAGING_PARAMETERS, OpenApiParameter("status", str, enum=ContactMessageStatus.values)],
        responses=OutputSerializer,
    )
    def get(self, request):
        messages = search_filter(ContactMessage.objects.order_by("-created_at", "-pk"),
                                 request.query_params.get("search"), ["name", "email", "subject", "message"])
        status = request.query_params.get("status") or "all"
        if status != "all":
            if status not in ContactMessageStatus.values:
                raise ShopError(_("Unknown message status"), field="status")
            messages = messages.filter(status=status)
        page = paginate(request, messages, lambda rows: MessageSerializer(rows, many=True).data)
        counts = dict(ContactMessage.objects.order_by().values_list("status").annotate(n=Count("pk")))
        page["status_counts"] = {value: counts.get(value, 0) for value in ContactMessageStatus.values}
        return Response(page)


class MessageStatusApi(StaffApi):
    area = "messages"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "MessageStatusInput"

        status = serializers.ChoiceField(choices=ContactMessageStatus.values)

    @extend_schema(request=InputSerializer, responses=MessageSerializer)
    def put(self, request, message_id):
        message = get_object_or_404(ContactMessage, pk=message_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        contact_message_set_status(actor=request.user, message=message, status=data.validated_data["status"])
        return Response(MessageSerializer(message).data)


class MessageReplyApi(StaffApi):
    area = "messages"
    area_actions = {"POST": "reply"}

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "MessageReplyInput"

        reply_message = serializers.CharField(required=False, allow_blank=True, default="", max_length=10000,
                                              trim_whitespace=True)

    @extend_schema(request=InputSerializer, responses=MessageSerializer)
    def post(self, request, message_id):
        message = get_object_or_404(ContactMessage, pk=message_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reply = data.validated_data["reply_message"]
        if not reply:
            raise ShopError(_("Please enter a reply message"), field="replyMessage")
        contact_message_reply(actor=request.user, message=message, reply=reply)
        return Response(MessageSerializer(message).data)


urlpatterns = [
    path("admin/contact-messages", MessageListApi.as_view(), name="admin-contact-messages"),
    path("admin/contact-messages/<id:message_id>", MessageStatusApi.as_view(), name="admin-contact-message"),
    path("admin/messages/<id:message_id>/reply", MessageReplyApi.as_view(), name="admin-message-reply"),
]
