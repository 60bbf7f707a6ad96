"""The static files' storage: WhiteNoise's hashed, compressed copies written by collectstatic,
and the plain names until it has run: a server started before `collectstatic` serves its pages,
the files from the apps' folders (settings.WHITENOISE_USE_FINDERS), instead of answering every
page with a 500 for a file its manifest does not name."""

from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def url(self, name, force=False):
        if not self.hashed_files and not force:  # no manifest: nothing collected yet
            return StaticFilesStorage.url(self, name)
        return super().url(name, force)
