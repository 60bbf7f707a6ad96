"""BG Stats imports on the API (../shared/specs/api.md, "BG Stats imports"): the file is checked and
queued at once (202), the worker imports it, and the job says how far it is, then what it did."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from companion import services
from companion.access import owned_or_404
from companion.api.views import ERRORS, SignedIn
from companion.bgstats_backup import BACKUP_MAX_BYTES
from companion.errors import Invalid
from companion.models import BackupImport


class RawBackup(BaseParser):
    """A backup sent as the body itself: its bytes, read up to one past the bound (read_backup
    refuses a bigger one with its sentence), never parsed here: read_backup checks it whole."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        return stream.read(BACKUP_MAX_BYTES + 1) if stream is not None else b""


class RefusedSerializer(serializers.Serializer):
    play = serializers.CharField()
    why = serializers.CharField()


class UnkeptSerializer(serializers.Serializer):
    field = serializers.CharField()
    what = serializers.CharField()
    plays = serializers.IntegerField(min_value=1)


class SummarySerializer(serializers.Serializer):
    """What an import did, once done; a failed import's `error` alone."""

    added = serializers.IntegerField(min_value=0, required=False)
    already = serializers.IntegerField(min_value=0, required=False)
    refused = RefusedSerializer(many=True, required=False)
    matched = serializers.ListField(child=serializers.CharField(), required=False)
    new_players = serializers.ListField(child=serializers.CharField(), required=False)
    unkept = UnkeptSerializer(many=True, required=False)
    error = serializers.CharField(required=False)


class BackupImportSerializer(serializers.ModelSerializer):
    summary = SummarySerializer(allow_null=True)

    class Meta:
        model = BackupImport
        fields = ["id", "status", "done", "total", "summary"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["summary"] = instance.summary or None
        return data


class BgstatsImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="the backup file BG Stats exported (.json)")


class BgstatsImports(APIView):
    permission_classes = [SignedIn]
    parser_classes = [MultiPartParser, RawBackup]

    @extend_schema(
        request={"multipart/form-data": BgstatsImportSerializer,
                 "application/json": {"type": "object",
                                      "description": "the backup itself, as BG Stats exported "
                                                     "it"}},
        responses={202: BackupImportSerializer, **ERRORS},
        description="Import a BG Stats backup into your history. The file is checked at once "
                    "(400 with a sentence when it is not a backup); the import runs in the "
                    "background: GET /api/imports/{id}/ says how far it is, then what it did. "
                    "Players are matched to your roster by name (any case).")
    def post(self, request):
        if isinstance(request.data, bytes):
            raw = request.data
        else:
            upload = request.data.get("file")
            if upload is None or not hasattr(upload, "read"):
                raise Invalid(_("Send the backup file BG Stats exported, as the field file or "
                                "as the body."), fields={"file": [_("Choose the backup file.")]})
            raw = upload.read(BACKUP_MAX_BYTES + 1)
        job = services.bgstats_import_start(owner=request.user, backup=raw)
        job.refresh_from_db()  # a backend that runs it at once has run it
        return Response(BackupImportSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class ImportDetail(APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses={200: BackupImportSerializer, **ERRORS})
    def get(self, request, pk):
        job = owned_or_404(BackupImport.objects.defer("backup"), request.user, pk=pk)
        return Response(BackupImportSerializer(job).data)
