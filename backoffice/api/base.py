"""What every admin API view shares: staff authentication and the role matrix."""

from rest_framework.views import APIView

from accounts.roles import StaffAreaPermission


class StaffApi(APIView):
    """An admin endpoint: 401 without staff credentials, 403 when the role lacks the right.

    Subclasses set `area` (a key of accounts.roles.AREAS) and, where a method
    means something else than view/create/edit/delete, `area_actions`.
    """

    permission_classes = [StaffAreaPermission]
    area = None
