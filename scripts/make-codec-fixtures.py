#!/usr/bin/env python3
"""Regenerates the small codec test fixtures under Tests/Decoder*Tests/Fixtures.

Development-time only (the fixtures are committed). Needs Pillow (`pip install pillow`) for JPEG with EXIF
and CMYK, and Debian's `webp` package (cwebp, img2webp) for WebP. PNG files are written by hand below so
that every colour type, bit depth, filter type and Adam7 interlacing is covered exactly.

Each PNG fixture `X.png` comes with `X.rgba`: the expected decoded pixels as straight (not premultiplied)
8-bit RGBA, row by row. The images the JPEG and WebP fixtures are made from are described in the tests.
"""

import io
import os
import struct
import subprocess
import tempfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests")
PNG_DIR = os.path.join(ROOT, "DecoderPNGTests", "Fixtures")
JPEG_DIR = os.path.join(ROOT, "DecoderJPEGTests", "Fixtures")
WEBP_DIR = os.path.join(ROOT, "DecoderWebPTests", "Fixtures")

# MARK: - PNG

W, H = 13, 11  # Odd sizes exercise bit packing and every Adam7 pass.


def chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp):
    """Filters each row with filter type (row index % 5) so every filter is exercised."""
    out = bytearray()
    previous = bytes(len(rows[0])) if rows else b""
    for index, row in enumerate(rows):
        kind = index % 5
        out.append(kind)
        for i, value in enumerate(row):
            left = row[i - bpp] if i >= bpp else 0
            up = previous[i]
            up_left = previous[i - bpp] if i >= bpp else 0
            predictor = [0, left, up, (left + up) // 2, paeth(left, up, up_left)][kind]
            out.append((value - predictor) & 0xFF)
        previous = row
    return bytes(out)


def pack_row(samples, depth):
    """Packs one row of integer samples at the given bit depth."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out = bytearray()
    per_byte = 8 // depth
    for start in range(0, len(samples), per_byte):
        byte = 0
        group = samples[start:start + per_byte]
        for i, s in enumerate(group):
            byte |= s << (8 - depth * (i + 1))
        out.append(byte)
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write_png(name, color_type, depth, pixel_samples, expected, plte=None, trns=None, interlaced=False):
    """pixel_samples(x, y) returns the list of samples of a pixel; expected(x, y) its straight RGBA8."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    bpp = max(1, channels * depth // 8)

    def rows_for(xs, ys):
        return [pack_row([s for x in xs for s in pixel_samples(x, y)], depth) for y in ys]

    if interlaced:
        raw = b""
        for x0, y0, dx, dy in ADAM7:
            xs, ys = list(range(x0, W, dx)), list(range(y0, H, dy))
            if xs and ys:
                raw += filter_rows(rows_for(xs, ys), bpp)
    else:
        raw = filter_rows(rows_for(range(W), range(H)), bpp)
    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, 1 if interlaced else 0))
    if plte is not None:
        data += chunk(b"PLTE", b"".join(bytes(c) for c in plte))
    if trns is not None:
        data += chunk(b"tRNS", trns)
    compressed = zlib.compress(raw, 9)
    # Split the image data over two IDAT chunks to exercise chunk boundaries.
    half = len(compressed) // 2
    data += chunk(b"IDAT", compressed[:half]) + chunk(b"IDAT", compressed[half:])
    data += chunk(b"IEND", b"")
    with open(os.path.join(PNG_DIR, name + ".png"), "wb") as f:
        f.write(data)
    with open(os.path.join(PNG_DIR, name + ".rgba"), "wb") as f:
        f.write(bytes(v for y in range(H) for x in range(W) for v in expected(x, y)))


def make_png():
    os.makedirs(PNG_DIR, exist_ok=True)
    for depth in (1, 2, 4, 8):
        top = (1 << depth) - 1
        sample = lambda x, y, top=top: (x + 3 * y) % (top + 1)
        gray = lambda x, y, top=top, s=sample: s(x, y) * 255 // top
        write_png(f"gray{depth}", 0, depth, lambda x, y, s=sample: [s(x, y)],
                  lambda x, y, g=gray: [g(x, y)] * 3 + [255])
    gray16 = lambda x, y: (x * 4001 + y * 1703) % 65536
    write_png("gray16", 0, 16, lambda x, y: [gray16(x, y)], lambda x, y: [round(gray16(x, y) / 257)] * 3 + [255])

    rgb8 = lambda x, y: [x * 19 % 256, y * 23 % 256, (x * y * 7 + 40) % 256]
    write_png("rgb8", 2, 8, rgb8, lambda x, y: rgb8(x, y) + [255])
    rgb16 = lambda x, y: [(x * 5003) % 65536, (y * 6007) % 65536, (x * y * 301 + 1000) % 65536]
    write_png("rgb16", 2, 16, rgb16, lambda x, y: [round(v / 257) for v in rgb16(x, y)] + [255])

    for depth in (1, 2, 4, 8):
        count = min(1 << depth, 20)
        palette = [((i * 53) % 256, (i * 97 + 30) % 256, (i * 11 + 200) % 256) for i in range(count)]
        index = lambda x, y, count=count: (x + 2 * y) % count
        write_png(f"palette{depth}", 3, depth, lambda x, y, i=index: [i(x, y)],
                  lambda x, y, i=index, p=palette: list(p[i(x, y)]) + [255], plte=palette)
    # Palette with tRNS: a partially transparent, a fully transparent and opaque entries.
    palette = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    alphas = [128, 0, 255]  # The fourth entry has no tRNS value, so it is opaque.
    index = lambda x, y: (x + y) % 4
    expected = lambda x, y: list(palette[index(x, y)]) + [alphas[index(x, y)] if index(x, y) < 3 else 255]
    write_png("palette8-trns", 3, 8, lambda x, y: [index(x, y)], expected, plte=palette, trns=bytes(alphas))
    write_png("palette2-trns-interlaced", 3, 2, lambda x, y: [index(x, y)], expected, plte=palette,
              trns=bytes(alphas), interlaced=True)

    # Gray and RGB with a tRNS colour key.
    key_gray = lambda x, y: (x * 20 + y) % 256
    write_png("gray8-trns", 0, 8, lambda x, y: [key_gray(x, y)],
              lambda x, y: [key_gray(x, y)] * 3 + [0 if key_gray(x, y) == 40 else 255],
              trns=struct.pack(">H", 40))
    write_png("rgb8-trns", 2, 8, rgb8,
              lambda x, y: rgb8(x, y) + [0 if rgb8(x, y) == rgb8(2, 1) else 255],
              trns=struct.pack(">HHH", *rgb8(2, 1)))

    ga8 = lambda x, y: [(x * 20) % 256, (y * 25 + x * 3) % 256]
    write_png("gray-alpha8", 4, 8, ga8, lambda x, y: [ga8(x, y)[0]] * 3 + [ga8(x, y)[1]])
    ga16 = lambda x, y: [(x * 5000) % 65536, 65535 if y % 2 == 0 else (y * 6000 + 1000) % 65536]
    write_png("gray-alpha16", 4, 16, ga16,
              lambda x, y: [round(ga16(x, y)[0] / 257)] * 3 + [round(ga16(x, y)[1] / 257)])

    rgba8 = lambda x, y: [x * 19 % 256, y * 23 % 256, 200, (x * 20 + y * 3) % 256]
    write_png("rgba8", 6, 8, rgba8, rgba8)
    write_png("rgba8-interlaced", 6, 8, rgba8, rgba8, interlaced=True)
    write_png("gray1-interlaced", 0, 1, lambda x, y: [(x + y) % 2], lambda x, y: [255 * ((x + y) % 2)] * 3 + [255],
              interlaced=True)
    rgba16 = lambda x, y: [(x * 5003) % 65536, (y * 6007) % 65536, 40000, 65535 if x < 6 else (x * 4000) % 65536]
    write_png("rgba16", 6, 16, rgba16, lambda x, y: [round(v / 257) for v in rgba16(x, y)])


# MARK: - JPEG

QUADRANTS = [(230, 30, 30), (30, 200, 60), (40, 60, 220), (240, 230, 40)]  # TL, TR, BL, BR


def quadrant_image(width=64, height=48, mode="RGB"):
    from PIL import Image

    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            pixels[x, y] = QUADRANTS[(1 if x >= width // 2 else 0) + (2 if y >= height // 2 else 0)]
    return image.convert(mode) if mode != "RGB" else image


def make_jpeg():
    from PIL import Image

    os.makedirs(JPEG_DIR, exist_ok=True)
    upright = quadrant_image()
    upright.save(os.path.join(JPEG_DIR, "baseline.jpg"), quality=92)
    upright.save(os.path.join(JPEG_DIR, "progressive.jpg"), quality=92, progressive=True)
    upright.convert("L").save(os.path.join(JPEG_DIR, "gray.jpg"), quality=92)
    upright.convert("CMYK").save(os.path.join(JPEG_DIR, "cmyk.jpg"), quality=92)
    # Stored pixels for orientation n are the upright image transformed by the inverse of n's display
    # transform, so every file displays as `upright`.
    inverse = {
        1: None,
        2: Image.Transpose.FLIP_LEFT_RIGHT,
        3: Image.Transpose.ROTATE_180,
        4: Image.Transpose.FLIP_TOP_BOTTOM,
        5: Image.Transpose.TRANSPOSE,
        6: Image.Transpose.ROTATE_90,
        7: Image.Transpose.TRANSVERSE,
        8: Image.Transpose.ROTATE_270,
    }
    for orientation, transform in inverse.items():
        stored = upright if transform is None else upright.transpose(transform)
        exif = Image.Exif()
        exif[0x0112] = orientation
        stored.save(os.path.join(JPEG_DIR, f"orientation-{orientation}.jpg"), quality=92, exif=exif.tobytes())
        # Check against Pillow's own interpretation of the tag.
        from PIL import ImageOps

        shown = ImageOps.exif_transpose(Image.open(os.path.join(JPEG_DIR, f"orientation-{orientation}.jpg")))
        assert shown.size == upright.size, orientation
        assert max(abs(a - b) for a, b in zip(shown.getpixel((8, 8)), QUADRANTS[0])) < 12, orientation


# MARK: - WebP


def make_webp():
    from PIL import Image

    os.makedirs(WEBP_DIR, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "quadrants.png")
        quadrant_image().save(source)
        subprocess.run(["cwebp", "-quiet", "-q", "90", source, "-o", os.path.join(WEBP_DIR, "lossy.webp")],
                       check=True)
        # A gradient with an alpha ramp, as described in the tests.
        alpha = Image.new("RGBA", (32, 24))
        pixels = alpha.load()
        for y in range(24):
            for x in range(32):
                pixels[x, y] = (x * 8, y * 10, 128, 255 if x < 8 else x * 8)
        alpha_source = os.path.join(tmp, "alpha.png")
        alpha.save(alpha_source)
        subprocess.run(["cwebp", "-quiet", "-lossless", "-exact", alpha_source, "-o",
                        os.path.join(WEBP_DIR, "lossless-alpha.webp")], check=True)
        subprocess.run(["cwebp", "-quiet", "-q", "90", "-alpha_q", "100", "-exact", alpha_source, "-o",
                        os.path.join(WEBP_DIR, "lossy-alpha.webp")], check=True)
        frames = []
        for index, color in enumerate([(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 128)]):
            path = os.path.join(tmp, f"frame{index}.png")
            Image.new("RGBA", (24, 16), color).save(path)
            frames.append(path)
        subprocess.run(["img2webp", "-loop", "3", "-lossless", "-d", "100", frames[0], "-d", "200", frames[1],
                        "-d", "300", frames[2], "-o", os.path.join(WEBP_DIR, "animated.webp")], check=True,
                       stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    make_png()
    make_jpeg()
    make_webp()
