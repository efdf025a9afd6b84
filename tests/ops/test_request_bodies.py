"""daphne's HTTP requests leave their bodies to Django (cribsite/asgi.py): twisted, beneath
daphne, no longer parses a form POST's body into arguments nobody reads."""

import io
from unittest import mock

import pytest
from daphne.http_protocol import WebRequest

import cribsite.asgi  # noqa: F401 - sets the server up as daphne loads it


def received(body: bytes, content_type: bytes, uri: bytes = b"/matches/7/move/") -> WebRequest:
    """A request as daphne's HTTP channel makes it, taken through twisted's parsing of it, with
    daphne's own handing over to the application left out."""
    request = WebRequest(mock.Mock())
    request.content = io.BytesIO(body)
    request.content.seek(0, io.SEEK_END)  # as the channel leaves it, the body written
    request.requestHeaders.setRawHeaders(b"content-type", [content_type])
    with mock.patch.object(WebRequest, "process") as process:
        request.requestReceived(b"POST", uri, b"HTTP/1.1")
    process.assert_called_once()
    return request


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"seq=3&cards=AH&cards=5D", b"application/x-www-form-urlencoded"),
        (
            b'--b\r\nContent-Disposition: form-data; name="seq"\r\n\r\n3\r\n--b--\r\n',
            b"multipart/form-data; boundary=b",
        ),
    ],
)
def test_a_form_body_is_left_whole_for_django(body, content_type):
    with mock.patch("twisted.web.http._parseContentType") as parse:
        request = received(body, content_type)
    parse.assert_not_called()
    assert request.args == {}
    assert request.content.read() == body  # what daphne hands to Django, from its start


def test_the_query_string_is_still_parsed():
    request = received(b"seq=3", b"application/x-www-form-urlencoded", b"/x/?page=2")
    assert request.args == {b"page": [b"2"]}


def test_a_request_may_still_ask_for_its_form_parsed():
    """Only the default changes: twisted's switch, given, is heard."""
    request = WebRequest(mock.Mock(), parsePOSTFormSubmission=True)
    request.content = io.BytesIO(b"seq=3")
    request.content.seek(0, io.SEEK_END)
    request.requestHeaders.setRawHeaders(b"content-type", [b"application/x-www-form-urlencoded"])
    with mock.patch.object(WebRequest, "process"):
        request.requestReceived(b"POST", b"/x/", b"HTTP/1.1")
    assert request.args == {b"seq": [b"3"]}
