"""Pages go out gzipped at zlib's fastest level, otherwise exactly as Django's GZipMiddleware
sends them (cribsite/compression.py)."""

import gzip
import secrets

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.middleware.gzip import GZipMiddleware
from django.test import RequestFactory

from cribsite import kept
from cribsite.compression import FastGZipMiddleware, Spliced, compress

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


# -- a kept page, gzipped once in pieces (Spliced) ----------------------------------------------

FORM = b"<form method='post'><input type='hidden' name='csrfmiddlewaretoken' value='"
SPLIT_PAGE = [PAGE[:900] + FORM, b"'><button>Join</button></form>\n" + PAGE[900:2500] + FORM,
              b"'></form>" + PAGE[2500:], ]  # fmt: skip


def tokens(count: int, length: int = 64):
    return [secrets.token_urlsafe(length)[:length].encode() for _ in range(count)]


@pytest.mark.parametrize(
    "parts",
    [
        SPLIT_PAGE,
        [PAGE],  # no form at all
        [b"", PAGE, b""],  # a token at either end
        [FORM, FORM, FORM, FORM],  # tokens close together, each part alike
        [secrets.token_bytes(3000).replace(b"\x00", b"z"), PAGE[:400]],  # one that won't compress
        [PAGE * 60, PAGE[:100], PAGE * 3],  # longer than deflate's window
    ],
)
def test_a_spliced_page_unzips_to_the_page_with_each_requests_token(parts):
    spliced = Spliced(parts, 64)
    for token in tokens(25):
        content = token.join(parts)
        data = spliced.gzip(token, content, max_random_bytes=100)
        assert gzip.decompress(data) == content
        assert data[8] == XFL_FASTEST


def test_a_spliced_page_is_a_little_larger_than_one_gzipped_whole():
    """Each piece brings its own code tables and each token goes uncompressed: about 70 bytes a
    token more (the lobby: 6 tokens, 4.3 KB against 3.9)."""
    spliced = Spliced(SPLIT_PAGE, 64)
    for token in tokens(10):
        content = token.join(SPLIT_PAGE)
        whole = len(compress(content, max_random_bytes=0))
        assert whole < len(spliced.gzip(token, content, max_random_bytes=0)) <= whole + 2 * 80


def test_a_spliced_page_is_padded_as_any_other():
    spliced, token = Spliced(SPLIT_PAGE, 64), tokens(1)[0]
    content = token.join(SPLIT_PAGE)
    lengths = {len(spliced.gzip(token, content, max_random_bytes=100)) for _ in range(60)}
    assert len(lengths) > 10
    assert spliced.gzip(token, content, max_random_bytes=0)[3] & gzip.FNAME == 0


def test_what_cannot_be_spliced_is_refused():
    with pytest.raises(ValueError, match="NUL"):
        Spliced([b"a\x00b", b"c"], 64)
    with pytest.raises(ValueError, match="the token is 10 bytes"):
        Spliced(SPLIT_PAGE, 64).gzip(b"x" * 10, b"", max_random_bytes=0)


def kept_answer(page, token: bytes):
    return page.answer(token.decode())


def test_a_kept_page_is_gzipped_from_its_pieces_from_its_second_answer_on(monkeypatch):
    page = kept._Page(kept.CSRF_SLOT.join(part.decode() for part in SPLIT_PAGE))
    made = []
    monkeypatch.setattr(kept, "Spliced", lambda *args: made.append(args) or Spliced(*args))
    for token in tokens(5):
        response = through(FastGZipMiddleware, request(), kept_answer(page, token))
        assert response.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.content) == token.join(SPLIT_PAGE)
        assert int(response.headers["Content-Length"]) == len(response.content)
    assert len(made) == 1 and page.spliced is not None  # made once, at the second answer


def test_a_kept_page_changed_on_its_way_out_is_gzipped_as_it_is_then():
    page = kept._Page(kept.CSRF_SLOT.join(part.decode() for part in SPLIT_PAGE))
    for token in tokens(3):
        response = kept_answer(page, token)
        response.content = response.content.replace(b"Join", b"Take a seat")
        response = through(FastGZipMiddleware, request(), response)
        assert gzip.decompress(response.content) == token.join(SPLIT_PAGE).replace(
            b"Join", b"Take a seat"
        )


def test_a_kept_page_holding_a_nul_is_gzipped_the_usual_way():
    page = kept._Page("<p>odd \x00 byte</p>" * 30 + kept.CSRF_SLOT)
    for token in tokens(4):
        response = through(FastGZipMiddleware, request(), kept_answer(page, token))
        assert gzip.decompress(response.content) == ("<p>odd \x00 byte</p>" * 30).encode() + token
    assert page.spliced is None and not page.spliceable


@pytest.mark.django_db
def test_the_lobby_arrives_gzipped_from_its_pieces_with_a_working_token(client, django_user_model):
    from games import services
    from tests.conftest import signed_in

    member = django_user_model.objects.create_user("gzip-reader", password="pw-gzip-reader-1")
    host = django_user_model.objects.create_user("gzip-host", password="pw-gzip-host-1")
    match = services.match_create(creator=host, variant="cribbage", players=2)
    browser = signed_in(member, enforce_csrf_checks=True)
    pages = []
    for _ in range(3):
        response = browser.get("/play/", headers={"accept-encoding": "gzip"})
        assert response.headers["Content-Encoding"] == "gzip"
        pages.append(gzip.decompress(response.content).decode())
    assert kept.drawn["page games/lobby.html"] == 1
    assert all(kept.CSRF_SLOT not in html for html in pages)
    token = pages[2].split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    joined = browser.post(f"/matches/{match.pk}/join/", {"csrfmiddlewaretoken": token})
    assert joined.status_code == 302
