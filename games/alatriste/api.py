"""GET /api/games/alatriste/cards/: the printed cards and, for a host, the host's own; POST (hosts):
a card of the host's own, seen by that host's tables only."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from companion.access import GUEST_HEADER
from companion.api.serializers import ErrorSerializer
from games.alatriste import rules, services
from games.alatriste.models import Card


class CatalogueCardSerializer(serializers.ModelSerializer):
    enemies = serializers.ListField(child=serializers.CharField(max_length=80), required=False)
    fame = serializers.IntegerField(min_value=-99, max_value=99, required=False)
    vigour = serializers.IntegerField(min_value=-99, max_value=99, required=False)
    fencing = serializers.IntegerField(min_value=-99, max_value=99, required=False)
    kind = serializers.ChoiceField(choices=rules.CARD_KINDS)

    class Meta:
        model = Card
        fields = ["id", "number", "name", "kind", "fame", "vigour", "fencing", "pistols",
                  "vehicle", "enemies", "placeholder"]
        read_only_fields = ["id"]
        # The name's uniqueness is the service's sentence, not a validator's.
        extra_kwargs = {"name": {"validators": []}}


ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403)}


class CardList(APIView):
    @extend_schema(responses=CatalogueCardSerializer(many=True), operation_id="alatriste_cards")
    def get(self, request):
        owner = request.user.pk if request.user.is_authenticated else None
        return Response(CatalogueCardSerializer(Card.seen_by(owner), many=True).data)

    @extend_schema(request=CatalogueCardSerializer,
                   responses={201: CatalogueCardSerializer, **ERRORS},
                   operation_id="alatriste_card_create",
                   auth=[{"knoxApiToken": []}, {"cookieAuth": []}])  # a host's
    def post(self, request):
        if not request.user.is_authenticated:
            if request.headers.get(GUEST_HEADER):
                raise PermissionDenied(_("Only a host adds cards to the catalogue."))
            raise NotAuthenticated(_("Sign in: send Authorization: Token <token>."))
        body = CatalogueCardSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        card = services.card_create(owner=request.user, **body.validated_data)
        return Response(CatalogueCardSerializer(card).data, status=status.HTTP_201_CREATED)
