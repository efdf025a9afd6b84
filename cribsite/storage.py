"""The static files' storages, each with its URLs remembered.

`{% static %}` asks the storage for a file's URL; with the manifest that means parsing the name,
finding its hashed copy and joining it to STATIC_URL, about 20-40 µs, a dozen times a page for
the same few files. Neither the manifest nor STATIC_URL changes while a process runs, so each
answer is kept after the first."""

from __future__ import annotations

from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class RememberedURLs:
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name, *args, **kwargs) -> str:
        if args or kwargs:  # force=True and the like: asked for afresh
            return super().url(name, *args, **kwargs)
        try:
            return self._urls[name]
        except KeyError:
            self._urls[name] = answer = super().url(name)
            return answer


class ManifestStorage(RememberedURLs, CompressedManifestStaticFilesStorage):
    """Production: hashed, compressed copies, served by whitenoise."""


class PlainStorage(RememberedURLs, StaticFilesStorage):
    """Development and tests: the files as they are, found by whitenoise's finders."""
