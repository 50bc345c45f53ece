#!/usr/bin/env python3
"""Writes Tests/DecoderAVIFTests/Fixtures/pillow-expected.json: what Pillow decodes from the AVIF files of its
own test suite, the independent reference of DecoderAVIF's real-file tests.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pillow==11.3.0 numpy  # its wheel decodes AVIF
    pip download --no-binary :all: --no-deps pillow==11.3.0   # the source distribution, for Tests/images/avif
    /tmp/venv/bin/python scripts/make-avif-expectations.py pillow-11.3.0/Tests/images/avif

For each file: the displayed size (after `ImageOps.exif_transpose`, which applies the irot/imir transforms
Pillow reads), the frame count, the frame durations in milliseconds, and for every frame a 16×16 grid of
premultiplied RGBA samples (at x = (i + 0.5) · width / 16, likewise y), as "rrggbbaa" strings row by row.
AVIF is lossy and decoders' YUV-to-RGB conversions differ by a few levels, so the tests compare with a
tolerance; the grid catches a wrong orientation, channel order, alpha or frame.
"""
import json
import os
import sys

import numpy as np
from PIL import Image, ImageOps


def grid(image: Image.Image):
    pixels = np.array(image.convert("RGBA"), dtype=np.uint32)
    height, width = pixels.shape[:2]
    samples = []
    for j in range(16):
        for i in range(16):
            r, g, b, a = pixels[int((j + 0.5) * height / 16), int((i + 0.5) * width / 16)]
            # Premultiplied, rounded as libavif does (x * a + 127) / 255.
            r, g, b = ((c * a + 127) // 255 for c in (r, g, b))
            samples.append("%02x%02x%02x%02x" % (r, g, b, a))
    return samples


def main(source: str) -> None:
    expected = {}
    for name in sorted(os.listdir(source)):
        if not (name.endswith(".avif") or name.endswith(".avifs")):
            continue
        image = Image.open(os.path.join(source, name))
        count = getattr(image, "n_frames", 1)
        frames, durations, size = [], [], None
        for index in range(count):
            image.seek(index)
            durations.append(image.info.get("duration") or 0)
            shown = ImageOps.exif_transpose(image)
            size = list(shown.size)
            frames.append(grid(shown))
        expected[name] = {"size": size, "frames": count, "durations": durations, "grid": frames}
    target = os.path.join(os.path.dirname(__file__), "..", "Tests", "DecoderAVIFTests", "Fixtures", "pillow-expected.json")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w") as file:  # One file per line.
        lines = [f"{json.dumps(name)}: {json.dumps(entry, sort_keys=True)}" for name, entry in expected.items()]
        file.write("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main(sys.argv[1])
