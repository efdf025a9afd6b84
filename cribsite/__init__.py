"""Project package: settings, URL routes and the ASGI application."""
