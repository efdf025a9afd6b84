"""The JSON API for programs (django-ninja), served under /api/v1/."""

from ninja import NinjaAPI

api = NinjaAPI(title="Cribbage Club API", version="1", urls_namespace="api")
