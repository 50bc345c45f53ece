#!/usr/bin/env python3
"""Writes Tests/DecoderGIFTests/Fixtures/pillow-expected.json: what Pillow decodes from the GIFs of its own test
suite, the independent reference of DecoderGIF's real-file tests.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pillow==10.4.0 numpy
    pip download --no-binary :all: --no-deps pillow==10.4.0   # the source distribution, for Tests/images
    /tmp/venv/bin/python scripts/make-gif-expectations.py pillow-10.4.0/Tests/images

For each file: the logical screen size, the frame count, Pillow's `loop` (the stored NETSCAPE2.0 count, or
null), the stored delays in milliseconds (0 when a frame has none), and every frame as Pillow composites it
(`seek(i)`, `convert("RGBA")`), with the colour of fully transparent pixels zeroed (premultiplied): run-length
encoded (`[[count, "rrggbbaa"], ...]`) for frames of at most 10 000 pixels and 1000 runs, else as an FNV-1a 64-bit hash of the RGBA bytes.
Files Pillow rejects get `"error"`. The fixtures themselves are copied to Fixtures/pillow/.
"""
import json
import os
import sys

import numpy as np
from PIL import Image


def fnv1a(data: bytes) -> str:
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


def runs(pixels: np.ndarray):
    words = pixels.reshape(-1, 4)
    result = []
    start = 0
    for index in range(1, len(words) + 1):
        if index == len(words) or not np.array_equal(words[index], words[start]):
            result.append([index - start, bytes(words[start]).hex()])
            start = index
            if len(result) > 1000:
                return None
    return result


def main(source: str) -> None:
    expected = {}
    for name in sorted(os.listdir(source)):
        if not name.endswith(".gif"):
            continue
        entry = {}
        try:
            image = Image.open(os.path.join(source, name))
            entry["size"] = list(image.size)
            count = getattr(image, "n_frames", 1)
            entry["frames"] = count
            entry["loop"] = image.info.get("loop")
            durations, frames = [], []
            for index in range(count):
                image.seek(index)
                durations.append(image.info.get("duration") or 0)
                pixels = np.array(image.convert("RGBA"), dtype=np.uint8)
                pixels[pixels[:, :, 3] == 0] = 0
                encoded = runs(pixels) if pixels.shape[0] * pixels.shape[1] <= 10_000 else None
                frames.append({"runs": encoded} if encoded is not None else {"fnv1a": fnv1a(pixels.tobytes())})
            entry["durations"] = durations
            entry["pixels"] = frames
        except Exception as error:  # Pillow's own rejection is part of the expectation.
            entry = {"error": f"{type(error).__name__}"}
        expected[name] = entry
    target = os.path.join(os.path.dirname(__file__), "..", "Tests", "DecoderGIFTests", "Fixtures", "pillow-expected.json")
    with open(target, "w") as file:  # One file per line.
        lines = [f"{json.dumps(name)}: {json.dumps(entry, sort_keys=True)}" for name, entry in expected.items()]
        file.write("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main(sys.argv[1])
