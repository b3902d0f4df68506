"""A staff-only page holding the importer panel on its own (the dashboard mounts the same island)."""

import json

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.shortcuts import render
from djangorestframework_camel_case.util import camelize

from accounts.roles import has_permission, is_staff_member
from importer.api import status_payload


def panel(request):
    if not is_staff_member(request.user):
        return redirect_to_login(request.get_full_path(), "/adminauth")
    if not has_permission(request.user, "products", "view"):
        raise PermissionDenied
    initial = json.loads(json.dumps(camelize(status_payload()), cls=DjangoJSONEncoder))
    return render(request, "importer/panel.html", {"props": {"initial": initial}})
