"""The site's routes under /club/, for the test that another URLconf gets its own links."""

from django.urls import include, path

urlpatterns = [path("club/", include("cribsite.urls"))]
