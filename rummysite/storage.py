"""Static files in production: WhiteNoise's compressed manifest storage, with ES modules'
``import`` statements rewritten to the hashed names, so a module loaded under a hashed name
imports its neighbours under theirs (and a new release never mixes with a cached old one)."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
