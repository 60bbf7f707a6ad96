"""The API's accounts: registering, signing in for a token, signing out, and the account's
signed-in devices (api.md, "Accounts and tokens"). Each device has a token of its own
(django-rest-knox), which ends by signing out, from the list, or unused for TOKEN_IDLE_DAYS."""

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from knox.settings import knox_settings
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from companion import limits, services
from companion.api import serializers as s
from companion.api.views import ERRORS, LIMITED, Public, SignedIn
from companion.errors import Invalid, NotFound


class Register(Public):
    @extend_schema(request=s.CredentialsSerializer, responses={201: s.TokenSerializer, **LIMITED})
    def post(self, request):
        with limits.registering(request):
            body = s.CredentialsSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            _user, token = services.user_register(**body.validated_data)
        return Response({"token": token}, status=status.HTTP_201_CREATED)


class ObtainToken(Public):
    @extend_schema(request=s.CredentialsSerializer, responses={200: s.TokenSerializer, **LIMITED})
    def post(self, request):
        body = s.CredentialsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        username = body.validated_data["username"]
        limits.sign_in_check(request, username)
        user = authenticate(request, **body.validated_data)
        if user is None:
            limits.sign_in_failed(request, username)
            raise Invalid(_("That user name and password do not match."))
        return Response({"token": services.token_for(user=user)})


class SignOut(APIView):
    permission_classes = [SignedIn]

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def post(self, request):
        """End the token this request was sent with."""
        user = request.user
        if request.auth is None:  # signed in by the pages' cookie: no token to end
            raise NotAuthenticated(_("Sign in: send Authorization: Token <token>."))
        services.token_end(user=user, device=request.auth.token_key)
        return Response(status=status.HTTP_204_NO_CONTENT)


class Devices(APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses={200: s.DeviceSerializer(many=True), **ERRORS})
    def get(self, request):
        """The account's signed-in devices, each with its own token; the newest first."""
        user = request.user
        current = getattr(request.auth, "digest", None)
        tokens = AuthToken.objects.filter(user=user).order_by("-created")
        return Response(s.DeviceSerializer([
            # A token's expiry moves on with each request (AUTO_REFRESH), a minute at least.
            {"id": token.token_key, "created": token.created,
             "last_used": max(token.created, token.expiry - knox_settings.TOKEN_TTL),
             "current": token.digest == current} for token in tokens], many=True).data)


class Device(APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, device):
        """End one device's token: it no longer works."""
        user = request.user
        if not services.token_end(user=user, device=device):
            raise NotFound(_("You have no signed-in device %(id)s.") % {"id": device[:20]})
        return Response(status=status.HTTP_204_NO_CONTENT)
