"""The bench's phones read their streams from a plain socket (bench/live.py): the body of a
chunked answer must come out whole however the bytes arrive."""

from bench.live import Dechunked

BODY = b"id: 7\nevent: now\ndata: <p>\xc3\xad</p>\n\n" + b"id: 7\nevent: version\ndata: {}\n\n"


def chunked(*pieces):
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


def test_a_body_in_one_read():
    chunks = Dechunked()
    assert chunks.feed(chunked(BODY[:20], BODY[20:])) == BODY
    assert chunks.ended


def test_a_body_one_byte_at_a_time():
    chunks = Dechunked()
    wire = chunked(BODY[:9], BODY[9:])
    body = b"".join(chunks.feed(wire[i:i + 1]) for i in range(len(wire)))
    assert body == BODY
    assert chunks.ended


def test_chunk_extensions_are_ignored_and_the_end_waits_for_the_last_chunk():
    chunks = Dechunked()
    assert chunks.feed(b"5;name=value\r\nhello\r\n") == b"hello"
    assert not chunks.ended
    assert chunks.feed(b"0\r\n\r\n") == b""
    assert chunks.ended
