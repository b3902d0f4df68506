from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def lockout_message():
    return _("Too many failed sign-in attempts. Please try again in 15 minutes.")


def lockout_response(request, credentials=None, *args, **kwargs):
    """Answer a locked-out sign-in without saying whether the account exists."""
    message = lockout_message()
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message, "message": message}, status=429)
    return render(request, "shop/locked_out.html", {"message": message}, status=429)
