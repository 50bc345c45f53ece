#!/usr/bin/env python3
"""Regenerates the HEIF test fixtures under Tests/DecoderHEIFTests/Fixtures.

Development-time only (the fixtures are committed). Needs Debian's libheif-examples (heif-enc, heif-convert),
libheif 1.15.1 with x265 as Debian 12 builds it.

- The source images `gradient.png` (96×64, opaque), `translucent.png` (96×64, an alpha ramp) and `p3.png`
  (`gradient.png` with a Display P3 ICC profile in an iCCP chunk, made below) are written by this script and
  committed beside the HEIF files made from them:

      heif-enc -q 90 -o gradient.heic gradient.png
      heif-enc -L -p chroma=444 --matrix_coefficients=0 -o lossless.heic gradient.png
      heif-enc -q 90 -o translucent.heic translucent.png
      heif-enc -q 90 -t 32 -o thumbnail.heic gradient.png
      heif-enc -q 90 -o p3.heic p3.png

- `pillow-heif/` holds a rotated file from pillow-heif's test suite (see its README).

Every HEIF file `X.heic` comes with `X.rgba`: what `heif-convert X.heic X.png` decodes, as straight (not
premultiplied) 8-bit RGBA, row by row, after an 8-byte header of the width and the height (big-endian UInt32).
"""

import os
import struct
import subprocess
import tempfile
import zlib

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "DecoderHEIFTests", "Fixtures")
W, H = 96, 64


def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def write_png(path, rows, alpha, icc=None):
    """Writes 8-bit RGB or RGBA rows (lists of byte tuples) with filter 0."""
    colour_type = 6 if alpha else 2
    raw = b"".join(b"\x00" + bytes(v for pixel in row for v in pixel) for row in rows)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, colour_type, 0, 0, 0))
    if icc is not None:
        data += chunk(b"iCCP", b"Display P3\x00\x00" + zlib.compress(icc))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def read_png(path):
    """Decodes the 8-bit RGB or RGBA, non-interlaced PNG that heif-convert writes into (width, height, RGBA)."""
    data = open(path, "rb").read()
    pos, idat, width, height, colour_type = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, payload = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", payload)
            assert depth == 8 and colour_type in (2, 6) and interlace == 0, path
        elif kind == b"IDAT":
            idat += payload
        pos += 12 + length
    channels = 4 if colour_type == 6 else 3
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    rgba = bytearray()
    for row in rows:
        for x in range(width):
            pixel = row[x * channels : (x + 1) * channels]
            rgba += pixel if channels == 4 else pixel + b"\xff"
    return width, height, bytes(rgba)


def s15(value):
    return struct.pack(">i", round(value * 65536))


def display_p3_profile():
    """A minimal ICC v2 display profile with Display P3's D50-adapted primaries and a 2.2 gamma."""
    def tag_xyz(x, y, z):
        return b"XYZ \x00\x00\x00\x00" + s15(x) + s15(y) + s15(z)

    desc_text = b"Display P3\x00"
    desc = b"desc\x00\x00\x00\x00" + struct.pack(">I", len(desc_text)) + desc_text + b"\x00" * 12 + b"\x00" * 67
    curve = b"curv\x00\x00\x00\x00" + struct.pack(">IH", 1, 0x0233) + b"\x00\x00"
    tags = [
        (b"desc", desc),
        (b"wtpt", tag_xyz(0.964203, 1.0, 0.824905)),
        (b"rXYZ", tag_xyz(0.515121, 0.241196, -0.001053)),
        (b"gXYZ", tag_xyz(0.291977, 0.692245, 0.041885)),
        (b"bXYZ", tag_xyz(0.157104, 0.066574, 0.784073)),
        (b"rTRC", curve),
        (b"gTRC", curve),
        (b"bTRC", curve),
        (b"cprt", b"text\x00\x00\x00\x00No copyright, use freely\x00\x00\x00\x00"),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, body = struct.pack(">I", len(tags)), b""
    for signature, data in tags:
        table += signature + struct.pack(">II", offset + len(body), len(data))
        body += data + b"\x00" * (-len(data) % 4)
    size = offset + len(body)
    header = struct.pack(">I", size) + b"none" + struct.pack(">I", 0x02100000) + b"mntrRGB XYZ "
    header += struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + b"\x00" * 24 + struct.pack(">I", 0)
    header += s15(0.9642) + s15(1.0) + s15(0.8249) + b"\x00" * 48
    assert len(header) == 128
    return header + table + body


def main():
    gradient = [[(x * 255 // (W - 1), y * 255 // (H - 1), 128 + (x + y) % 64) for x in range(W)] for y in range(H)]
    translucent = [[(255 - x * 2, 40 + y * 3, 200, min(255, x * 3 + y)) for x in range(W)] for y in range(H)]
    write_png(os.path.join(FIXTURES, "gradient.png"), gradient, alpha=False)
    write_png(os.path.join(FIXTURES, "translucent.png"), translucent, alpha=True)
    write_png(os.path.join(FIXTURES, "p3.png"), gradient, alpha=False, icc=display_p3_profile())
    with open(os.path.join(FIXTURES, "p3.icc"), "wb") as f:
        f.write(display_p3_profile())

    def run(*arguments):
        subprocess.run(arguments, cwd=FIXTURES, check=True, stdout=subprocess.DEVNULL)

    run("heif-enc", "-q", "90", "-o", "gradient.heic", "gradient.png")
    run("heif-enc", "-L", "-p", "chroma=444", "--matrix_coefficients=0", "-o", "lossless.heic", "gradient.png")
    run("heif-enc", "-q", "90", "-o", "translucent.heic", "translucent.png")
    run("heif-enc", "-q", "90", "-t", "32", "-o", "thumbnail.heic", "gradient.png")
    run("heif-enc", "-q", "90", "-o", "p3.heic", "p3.png")

    names = ["gradient", "lossless", "translucent", "thumbnail", "p3", "pillow-heif/transform_mismatch_thumbnail"]
    with tempfile.TemporaryDirectory() as temporary:
        for name in names:
            png = os.path.join(temporary, "out.png")
            run("heif-convert", name + ".heic", png)
            width, height, rgba = read_png(png)
            with open(os.path.join(FIXTURES, name + ".rgba"), "wb") as f:
                f.write(struct.pack(">II", width, height) + rgba)


if __name__ == "__main__":
    main()
