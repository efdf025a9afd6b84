"""Pages gzipped at zlib's fastest level, as nginx's default (gzip_comp_level 1) does.

Django's GZipMiddleware compresses at level 6. A match page (about 11 KB of HTML) leaves at 3.2 KB
that way and at 3.6 KB at level 1, but level 6 took 0.15 ms of the page's 1.15 ms of server CPU
and level 1 half as long: pages are drawn for every request, and a few hundred bytes more on the
wire cost a phone far less than the server's time costs every member at a busy table.

Everything else is Django's: the same responses are compressed (200 bytes or more, none already
encoded, only for browsers that accept gzip), with the same headers (Vary, Content-Length, a weak
ETag) and the same padding against BREACH-style guessing (a random run of filler as the gzip
header's file name, up to `max_random_bytes`). Streamed responses are left to Django's own code.

A page kept whole (cribsite.kept) is the same for every request but for its CSRF token, yet
gzipping it anew took 0.04 ms in a tight loop and about 0.1 ms inside a request (zlib sets up
some 256 KB of tables for each call). `Spliced` compresses such a page once, in pieces that
leave a gap wherever the token goes, and each request's answer is those pieces with its own
token between them, as stored (uncompressed) deflate blocks: a page decompresses to exactly what
`compress` would have given, for a checksum's cost (4 us), and is about an eighth larger (each
piece brings its own code tables: the lobby 4.3 KB against 3.9, the match page 4.0 against 3.6).
"""

from __future__ import annotations

import gzip
import secrets
import struct
import zlib
from collections.abc import Sequence

from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.utils.cache import patch_vary_headers

LEVEL = 1
WINDOW = 32 * 1024  # how far back deflate may refer (gzip's window)


def compress(data: bytes, *, max_random_bytes: int) -> bytes:
    """`data` gzipped at LEVEL, its header naming a file of 0 to max_random_bytes - 1 filler
    bytes (what Django's compress_string adds, so that a page's length says less of it)."""
    compressed = gzip.compress(data, compresslevel=LEVEL, mtime=0)
    return _padded(compressed[:10], max_random_bytes) + compressed[10:]


def _padded(header: bytes, max_random_bytes: int) -> bytes:
    """A gzip header, naming a file of 0 to max_random_bytes - 1 filler bytes (none at 0)."""
    if not max_random_bytes:
        return header
    named = bytearray(header)
    named[3] |= gzip.FNAME
    return bytes(named) + b"a" * secrets.randbelow(max_random_bytes) + b"\x00"


class Spliced:
    """A page made of `parts` with a token of `gap` bytes between each two, gzipped once.

    Each part is compressed on its own (ending on a byte, so that what follows may start there)
    but with everything before it as deflate's dictionary, so that it refers back across the
    gaps as one stream would. In that dictionary each gap is `gap` NUL bytes: deflate refers
    back only to bytes equal to those it encodes, and no part holds a NUL, so nothing ever
    points into a gap, whichever token fills it. Each token goes in as a stored block."""

    def __init__(self, parts: Sequence[bytes], gap: int) -> None:
        if any(b"\x00" in part for part in parts) or not 0 < gap < 0x10000:
            raise ValueError("a spliced page's parts hold no NUL and its gaps are 1-65535 bytes")
        self.parts, self.gap = tuple(parts), gap
        pieces, before = [], b""
        for i, part in enumerate(self.parts):
            last = i == len(self.parts) - 1
            if before:
                deflate = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS,
                                           zdict=before[-WINDOW:])  # fmt: skip
            else:
                deflate = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
            pieces.append(
                deflate.compress(part) + deflate.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)
            )
            before = (before + part + b"\x00" * gap)[-WINDOW:]
        self.pieces = tuple(pieces)
        self._stored = b"\x00" + struct.pack("<HH", gap, gap ^ 0xFFFF)  # a stored block's head
        self._header = gzip.compress(b"", compresslevel=LEVEL, mtime=0)[:10]

    def gzip(self, token: bytes, content: bytes, *, max_random_bytes: int) -> bytes:
        """`content` (the parts joined by `token`) gzipped, padded as `compress` pads."""
        if len(token) != self.gap:
            raise ValueError(f"the token is {len(token)} bytes, the gaps {self.gap}")
        trailer = struct.pack("<II", zlib.crc32(content), len(content) & 0xFFFFFFFF)
        body = (self._stored + token).join(self.pieces)
        return _padded(self._header, max_random_bytes) + body + trailer


class FastGZipMiddleware(GZipMiddleware):
    def process_response(self, request, response):
        if response.streaming:
            return super().process_response(request, response)
        content = response.content
        if len(content) < 200 or response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        compressed = None
        kept = getattr(response, "gzip_kept", None)  # a kept page's own way (cribsite.kept)
        if kept is not None:
            compressed = kept(content, max_random_bytes=self.max_random_bytes)
        if compressed is None:
            compressed = compress(content, max_random_bytes=self.max_random_bytes)
        if len(compressed) >= len(content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "gzip"
        return response
