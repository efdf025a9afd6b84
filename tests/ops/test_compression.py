"""Pages go out gzipped at zlib's fastest level, otherwise exactly as Django's GZipMiddleware
sends them (cribsite/compression.py)."""

import gzip
import secrets

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.middleware.gzip import GZipMiddleware
from django.test import RequestFactory

from cribsite.compression import FastGZipMiddleware, compress

PAGE = (
    "<li class='match-row'>Cribbage · Alice, Bob <a href='/matches/7/'>Open</a></li>\n" * 80
).encode()
XFL_FASTEST = 4  # the gzip header's "extra flags" byte as zlib writes it at level 1


def request(accept: str = "gzip, deflate, br"):
    return RequestFactory().get("/play/", headers={"accept-encoding": accept})


def answer(content: bytes = PAGE, **headers) -> HttpResponse:
    response = HttpResponse(content, content_type="text/html; charset=utf-8")
    for name, value in headers.items():
        response.headers[name] = value
    return response


def through(middleware_class, req, response):
    return middleware_class(lambda r: response)(req)


def test_it_gzips_a_page_at_the_fastest_level():
    response = through(FastGZipMiddleware, request(), answer())
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.content[8] == XFL_FASTEST
    assert gzip.decompress(response.content) == PAGE
    assert int(response.headers["Content-Length"]) == len(response.content)
    assert response.headers["Vary"] == "Accept-Encoding"
    assert len(response.content) < len(PAGE) / 5


def test_its_headers_are_djangos():
    ours = through(FastGZipMiddleware, request(), answer(ETag='"abc"', Vary="Cookie"))
    django = through(GZipMiddleware, request(), answer(ETag='"abc"', Vary="Cookie"))
    assert gzip.decompress(ours.content) == gzip.decompress(django.content) == PAGE
    mine = {k: v for k, v in ours.headers.items() if k != "Content-Length"}
    theirs = {k: v for k, v in django.headers.items() if k != "Content-Length"}
    assert mine == theirs
    assert ours.headers["ETag"] == 'W/"abc"'
    assert ours.headers["Vary"] == "Cookie, Accept-Encoding"


@pytest.mark.parametrize(
    ("req", "response", "vary"),
    [
        (request(), answer(b"<p>short</p>"), None),  # under 200 bytes: not worth it
        (request(), answer(PAGE, **{"Content-Encoding": "br"}), None),  # already encoded
        (request("identity"), answer(), "Accept-Encoding"),  # the browser does not take gzip
        (request("br;q=1.0, gzips"), answer(), "Accept-Encoding"),
    ],
)
def test_it_leaves_alone_what_django_leaves_alone(req, response, vary):
    original = response.content
    for middleware in (FastGZipMiddleware, GZipMiddleware):
        response = through(middleware, req, response)
        assert response.content == original
        assert response.headers.get("Vary") == vary
        assert response.headers.get("Content-Encoding") in (None, "br")


def test_a_page_that_would_grow_is_sent_as_it_is():
    noise = secrets.token_bytes(400)  # random bytes do not compress
    response = through(FastGZipMiddleware, request(), answer(noise))
    assert response.content == noise
    assert not response.has_header("Content-Encoding")


def test_each_answer_is_padded_by_a_random_length_as_djangos_are():
    lengths = set()
    for _ in range(60):
        data = compress(PAGE, max_random_bytes=100)
        assert data[3] & gzip.FNAME
        name_end = data.index(b"\x00", 10)
        assert set(data[10:name_end]) <= {ord("a")}
        assert 0 <= name_end - 10 < 100
        assert gzip.decompress(data) == PAGE
        lengths.add(len(data))
    assert len(lengths) > 10
    assert compress(PAGE, max_random_bytes=0)[3] & gzip.FNAME == 0


def test_a_streamed_answer_goes_through_djangos_own_code():
    response = StreamingHttpResponse(iter([PAGE[:500], PAGE[500:]]))
    response = through(FastGZipMiddleware, request(), response)
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Content-Length" not in response.headers
    assert gzip.decompress(b"".join(response.streaming_content)) == PAGE


@pytest.mark.django_db
def test_a_page_of_the_site_arrives_gzipped(client):
    response = client.get("/rules/cribbage/", headers={"accept-encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.content[8] == XFL_FASTEST
    assert b"</html>" in gzip.decompress(response.content)
