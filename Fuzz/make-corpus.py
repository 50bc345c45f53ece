#!/usr/bin/env python3
"""Builds Fuzz/corpus/: the seed inputs of every fuzz target, from real files.

Sources: the codec test fixtures (Tests/*/Fixtures), the test images of Pillow's source distribution
(`pip download --no-binary :all: --no-deps pillow==10.4.0`, unpacked; pass its Tests/images folder) and the
Adwaita icon theme's SVGs (Debian's adwaita-icon-theme, /usr/share/icons/Adwaita). Hand-written seeds are for
the text formats (data: URLs, HTTP headers) and the cache's files. Files are picked small (a few KB each) so
the corpus stays small and every execution fast.

Usage: Fuzz/make-corpus.py PILLOW_TESTS_IMAGES_DIR
"""
import os
import shutil
import struct
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "Fuzz", "corpus")
pillow = sys.argv[1]
adwaita = "/usr/share/icons/Adwaita"


def files(folder, suffixes, limit, count):
    """Up to `count` files under `folder` ending in one of `suffixes`, each at most `limit` bytes, by name."""
    found = []
    for directory, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            path = os.path.join(directory, name)
            if name.lower().endswith(suffixes) and os.path.getsize(path) <= limit:
                found.append(path)
    # Spread the picks over the list rather than taking the first names alphabetically.
    if len(found) > count:
        step = len(found) / count
        found = [found[int(i * step)] for i in range(count)]
    return found


def seed(target, name, data):
    folder = os.path.join(corpus, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as out:
        out.write(data)


def copy(target, paths, prefix=None):
    for path in paths:
        with open(path, "rb") as source:
            data = source.read()
        seed(target, os.path.basename(path), data if prefix is None else data[:prefix])


fixtures = os.path.join(root, "Tests")
pngs = files(fixtures, (".png",), 16384, 40) + files(pillow, (".png",), 6000, 40)
jpegs = files(fixtures, (".jpg",), 32768, 20) + files(pillow, (".jpg", ".jpeg"), 24000, 25)
webps = files(fixtures, (".webp",), 32768, 10) + files(pillow, (".webp",), 10000, 12)
svgs = files(adwaita, (".svg",), 6000, 40)
jxls = files(os.path.join(fixtures, "DecoderJXLTests"), (".jxl",), 16384, 10)
others = files(pillow, (".gif", ".bmp", ".tif", ".ico", ".avif", ".jxl", ".heic", ".jp2", ".mp4"), 20000, 25)

if os.path.isdir(corpus):
    shutil.rmtree(corpus)
copy("png", pngs)
copy("jpeg", jpegs)
copy("webp", webps)
copy("svg", svgs)
copy("jxl", jxls)
copy("jpeg-markers", jpegs, prefix=4096)  # The headers are all the walks read before the scan data.
copy("asset-type", pngs[:5] + jpegs[:5] + webps[:5] + svgs[:10] + others, prefix=512)
copy("pipeline", pngs[::4] + jpegs[::3] + webps[::2] + svgs[::4])
copy("heif", files(os.path.join(fixtures, "DecoderHEIFTests"), (".heic",), 8000, 10))

for index, text in enumerate([
    ",", "text/plain,hello", ";base64,aGVsbG8=", "image/png;base64,iVBORw0KGgo=", "image/svg+xml,%3Csvg%2F%3E",
    "image/svg+xml;charset=utf-8,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E", ";base64,aGVs%0AbG8=",
    "text/plain;charset=US-ASCII;base64,", "%ZZ", "image/gif;BASE64,R0lGODlhAQABAAAAACw=",
]):
    seed("data-url", f"seed-{index}", text.encode())

# http-headers: status byte (100 + n % 500), received-bytes byte, expected-length byte, then header lines; a blank
# line starts the response to the range request.
for index, (status, lines) in enumerate([
    (100, ["HTTP/1.1 200 OK", "Content-Type: image/jpeg", "Accept-Ranges: bytes", 'ETag: "abc"',
           "Content-Length: 4000", "", "HTTP/1.1 206 Partial Content", "Content-Range: bytes 17-3999/4000"]),
    (106, ["HTTP/2 206", "content-range: bytes 0-99/200", "last-modified: Tue, 01 Dec 2026 10:00:00 GMT"]),
    (0, ["HTTP/1.1 100 Continue", "", "HTTP/1.1 200 OK", "ETag: W/\"weak\"", "Accept-Ranges: bytes"]),
    (201, ["HTTP/1.1 301 Moved", "Location: /b", "HTTP/1.1 404 Not Found", "Set-Cookie: a=1", "set-cookie: b=2"]),
    (100, ["HTTP/1.1 200 OK\r", "Cache-Control: max-age=60, public\r", "Vary: Accept\r", "Age: 10\r", "\r"]),
]):
    body = "\n".join(lines).encode()
    seed("http-headers", f"seed-{index}", bytes([status, 16, 250]) + body)

# cache-entry: flags (bit 0: seal the checksum), then the entry file (see Sources/CacheDisk/Internal/EntryFile.swift).
key = b"https://example.com/image.jpg"
payload = b"\x89PNG\r\n\x1a\n entry payload"
for index, (expiry, body) in enumerate([(0, payload), (2**62, payload), (1, payload), (0, b"")]):
    header = struct.pack("<Q16sIIQqqQ", 0x0100_4344_454B_554E, b"\0" * 16, len(key), 0, len(body), expiry,
                         1_700_000_000_000_000_000, 0)
    seed("cache-entry", f"seed-{index}", b"\x01" + header + key + body)
    seed("cache-entry", f"unsealed-{index}", b"\x00" + header + key + body)

# cache-journal: flags (bit 0: seal), then the journal: a 16-byte header and 72-byte records (kind, padding whose
# byte 1 odd means "the key's digest", digest, size, time, expiry, checksum).
def record(kind, size=0, time=1_700_000_000_000_000_000, expiry=0, own_key=True):
    return struct.pack("<BB6s32sqqqQ", kind, 1 if own_key else 0, b"\0" * 6, b"\0" * 32, size, time, expiry, 0)


journal_header = struct.pack("<QQ", 0x3249_4344_454B_554E, 0)
for index, records in enumerate([
    [record(1, size=14)],
    [record(1, size=14), record(3), record(3)],
    [record(1, size=14), record(2)],
    [record(1, size=14), record(4), record(1, size=99, own_key=False)],
    [record(1, size=2**40, expiry=1)],
]):
    seed("cache-journal", f"seed-{index}", b"\x01" + journal_header + b"".join(records))
    seed("cache-journal", f"torn-{index}", b"\x01" + journal_header + b"".join(records)[:-20])

total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(corpus) for f in fs)
print(f"{corpus}: {total // 1024} KB")
