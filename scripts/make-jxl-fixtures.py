#!/usr/bin/env python3
"""Regenerates the JPEG XL test fixtures under Tests/DecoderJXLTests/Fixtures.

Development-time only (the fixtures are committed). Needs Debian's `libjxl-tools` (cjxl, djxl 0.7.0); nothing
else: the PNG and APNG sources are written by hand below, and djxl's PNG output is read back by hand.

Every `.rgba` file is straight (not premultiplied) 8-bit RGBA, row by row:
- `source.rgba`, `alpha.rgba`: the pixels of `source.png` and `alpha.png` as written.
`animated.png` is an APNG of three solid 32×32 frames (see FRAMES); cjxl 0.7 keeps their durations but not the
APNG's play count, so `animated.jxl` loops forever.
- `NAME.djxl.rgba`: what `djxl NAME.jxl out.png` decodes (libjxl's own reference output).

The commands, all run from the fixture folder:
    cjxl source.png lossless.jxl -d 0 -e 3          (a bare codestream: cjxl writes no container unless asked)
    cjxl source.png lossy.jxl -d 1 -e 3
    cjxl large.png progressive.jxl -d 1 -e 3 -p      (large.png: source.png's picture at 384×256, more than one 256×256 group, which libjxl 0.7 needs to render a partial frame)
    cjxl alpha.png alpha.jxl -d 0 -e 3
    cjxl animated.png animated.jxl -d 0 -e 3
    cjxl gray.png gray.jxl -d 0 -e 3                (gray.png: grey with alpha, 8 bits, `gray.rgba` its pixels)
    cjxl gray.png gray-lossy.jxl -d 1 -e 3
    cjxl orientation-6.jpg orientation-6.jxl        (a JPEG from DecoderJPEGTests: EXIF orientation 6, kept)
    cjxl source.png container.jxl -d 0 -e 3 --container=1
    djxl X.jxl X.png                               (then X.png -> X.djxl.rgba)
"""

import os
import shutil
import struct
import subprocess
import tempfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests")
DIR = os.path.join(ROOT, "DecoderJXLTests", "Fixtures")
JPEG = os.path.join(ROOT, "DecoderJPEGTests", "Fixtures", "orientation-6.jpg")

W, H = 64, 48


def chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def idat_rows(rows):
    """Filter type 0 for every row."""
    return zlib.compress(b"".join(b"\x00" + bytes(row) for row in rows), 9)


def png(width, height, rows, color_type):
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
    return data + chunk(b"IDAT", idat_rows(rows)) + chunk(b"IEND", b"")


def source_pixel(x, y):
    """An opaque picture with smooth gradients and sharp edges (lossy coding has something to do)."""
    r = x * 4 % 256
    g = y * 5 % 256
    b = 200 if (x // 8 + y // 8) % 2 else 40
    return [r, g, b]


def alpha_pixel(x, y):
    """Colour with an alpha ramp from 0 at the left to 255 at the right, and one fully transparent band."""
    alpha = 0 if 20 <= y < 24 else min(255, x * 4)
    return source_pixel(x, y) + [alpha]


FRAMES = [((230, 30, 30, 255), 10), ((30, 200, 60, 128), 20), ((40, 60, 220, 255), 30)]  # colour, 1/100 s


def apng():
    """A 32×32 animated PNG of three solid frames (straight alpha), shown 0.1, 0.2 and 0.3 s, played 3 times."""
    size = 32
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
    data += chunk(b"acTL", struct.pack(">II", len(FRAMES), 3))
    sequence = 0
    for index, (colour, delay) in enumerate(FRAMES):
        # dispose_op 0 (none), blend_op 0 (source): each frame replaces the canvas.
        data += chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, size, size, 0, 0, delay, 100, 0, 0))
        sequence += 1
        compressed = idat_rows([list(colour) * size] * size)
        if index == 0:
            data += chunk(b"IDAT", compressed)
        else:
            data += chunk(b"fdAT", struct.pack(">I", sequence) + compressed)
            sequence += 1
    return data + chunk(b"IEND", b"")


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png_rgba(path):
    """Decodes an 8-bit, non-interlaced grey or RGB PNG, with or without alpha (what djxl writes for these files),
    to straight RGBA."""
    data = open(path, "rb").read()
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        payload = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", payload)
        elif kind == b"IDAT":
            idat += payload
        offset += 12 + length
    width, height, depth, color_type, _, _, interlace = header
    assert depth == 8 and color_type in (0, 2, 4, 6) and interlace == 0, header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color_type]
    raw = zlib.decompress(idat)
    stride = width * channels
    out, previous = bytearray(), bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            row[i] = (row[i] + [0, left, up, (left + up) // 2, paeth(left, up, up_left)][kind]) & 0xFF
        for x in range(width):
            pixel = row[x * channels:(x + 1) * channels]
            if channels <= 2:  # Grey: the sample three times.
                pixel = pixel[:1] * 3 + pixel[1:]
            out += pixel + (b"\xff" if channels in (1, 3) else b"")
        previous = row
    return width, height, bytes(out)


def run(*arguments):
    subprocess.run(arguments, cwd=DIR, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    os.makedirs(DIR, exist_ok=True)
    write = lambda name, data: open(os.path.join(DIR, name), "wb").write(data)
    write("source.png", png(W, H, [[v for x in range(W) for v in source_pixel(x, y)] for y in range(H)], 2))
    write("source.rgba", bytes(v for y in range(H) for x in range(W) for v in source_pixel(x, y) + [255]))
    write("alpha.png", png(W, H, [[v for x in range(W) for v in alpha_pixel(x, y)] for y in range(H)], 6))
    write("alpha.rgba", bytes(v for y in range(H) for x in range(W) for v in alpha_pixel(x, y)))
    gray = lambda x, y: [x * 4 % 256, 255 - y * 5]
    write("gray.png", png(W, H, [[v for x in range(W) for v in gray(x, y)] for y in range(H)], 4))
    write("gray.rgba", bytes(v for y in range(H) for x in range(W) for v in [gray(x, y)[0]] * 3 + [gray(x, y)[1]]))
    write("large.png", png(384, 256, [[v for x in range(384) for v in source_pixel(x, y)] for y in range(256)], 2))
    write("animated.png", apng())
    shutil.copy(JPEG, os.path.join(DIR, "orientation-6.jpg"))

    run("cjxl", "source.png", "lossless.jxl", "-d", "0", "-e", "3")
    run("cjxl", "source.png", "lossy.jxl", "-d", "1", "-e", "3")
    run("cjxl", "large.png", "progressive.jxl", "-d", "1", "-e", "3", "-p")
    run("cjxl", "alpha.png", "alpha.jxl", "-d", "0", "-e", "3")
    run("cjxl", "animated.png", "animated.jxl", "-d", "0", "-e", "3")
    run("cjxl", "gray.png", "gray.jxl", "-d", "0", "-e", "3")
    run("cjxl", "gray.png", "gray-lossy.jxl", "-d", "1", "-e", "3")
    run("cjxl", "orientation-6.jpg", "orientation-6.jxl")
    run("cjxl", "source.png", "container.jxl", "-d", "0", "-e", "3", "--container=1")
    with tempfile.TemporaryDirectory() as temporary:
        for name in ("lossless", "lossy", "gray-lossy", "orientation-6"):
            output = os.path.join(temporary, name + ".png")
            run("djxl", name + ".jxl", output)
            width, height, rgba = read_png_rgba(output)
            write(name + ".djxl.rgba", rgba)
            print(f"{name}.jxl: djxl decodes {width}×{height}")


if __name__ == "__main__":
    main()
