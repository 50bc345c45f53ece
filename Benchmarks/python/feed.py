"""The Python side of nuke-bench's end-to-end scenario (6): a feed of images fetched from a local server,
decoded, resized to fit 256 px and cached — the way a Python developer would write it.

    feed.py --mode pillow|pyvips --base http://127.0.0.1:PORT/ --count 300 --runs 5 --warmup 1

Each run: one httpx.AsyncClient (HTTP/1.1 keep-alive, at most 6 connections, like the pipeline's default) fetches
every image concurrently with asyncio; each response is written to a disk cache directory (fresh for the run),
decoded and thumbnailed in a thread pool sized to the CPU count (Pillow's `Image.thumbnail`, which uses JPEG
DCT scaling through `draft`; or `pyvips.Image.thumbnail_buffer`), and the thumbnail kept in an in-memory dict.
Prints one JSON line: {"times_ms": [...]} (interpreter start-up and imports excluded).
"""

import argparse
import asyncio
import io
import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import httpx


def thumbnail_pillow(data):
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    image.thumbnail((256, 256))
    image.load()
    return image


def thumbnail_pyvips(data):
    import pyvips

    image = pyvips.Image.thumbnail_buffer(data, 256)
    return image.write_to_memory(), image.width, image.height


async def feed(base, count, mode, pool):
    memory_cache = {}
    cache_dir = tempfile.mkdtemp(prefix="nuke-bench-py-")
    thumbnail = thumbnail_pillow if mode == "pillow" else thumbnail_pyvips
    loop = asyncio.get_running_loop()
    limits = httpx.Limits(max_connections=6, max_keepalive_connections=6)
    try:
        async with httpx.AsyncClient(limits=limits, timeout=60) as client:

            async def one(index):
                response = await client.get(f"{base}p{index}.jpg")
                response.raise_for_status()
                data = response.content
                with open(os.path.join(cache_dir, f"{index}"), "wb") as file:
                    file.write(data)
                memory_cache[index] = await loop.run_in_executor(pool, thumbnail, data)

            await asyncio.gather(*(one(index) for index in range(count)))
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    if len(memory_cache) != count:
        raise SystemExit(f"loaded {len(memory_cache)} of {count}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pillow", "pyvips"], required=True)
    parser.add_argument("--base", required=True)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args()
    if args.mode == "pyvips":
        import pyvips  # noqa: F401  (fail before timing if it can't load libvips)
    pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 2)
    times = []
    for run in range(args.warmup + args.runs):
        start = time.perf_counter()
        asyncio.run(feed(args.base, args.count, args.mode, pool))
        if run >= args.warmup:
            times.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"times_ms": times}))


if __name__ == "__main__":
    main()
