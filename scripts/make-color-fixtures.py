#!/usr/bin/env python3
"""Regenerates the colour-management fixtures under Tests/ColorLCMSTests/Fixtures.

Development-time only (the fixtures are committed). Needs Pillow (the JPEG, PNG and WebP writers attach the ICC
profile given as `icc_profile`), a C compiler and Debian's liblcms2-dev, icc-profiles-free and colord-data:

- DisplayP3.icc: built with lcms2 by scripts/make-display-p3-icc.c (SMPTE EG 432-1 primaries, D65 white, the
  sRGB transfer curve), embedded in p3.jpg (quality 95).
- AdobeRGB.icc: icc-profiles-free's /usr/share/color/icc/compatibleWithAdobeRGB1998.icc, in adobergb.png's iCCP.
- ProPhotoRGB.icc: colord-data's /usr/share/color/icc/colord/ProPhotoRGB.icc, in prophoto.webp's ICCP (lossless).
- noprofile.png: the same pixels without a profile.

The tests compare the pipeline's conversion with lcms2's transicc on the decoded pixels, so no reference output
is committed.
"""

import os
import shutil
import subprocess
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "ColorLCMSTests", "Fixtures")
W, H = 64, 48


def pattern():
    """Gradients, and saturated patches along the bottom, where the gamuts differ most."""
    image = Image.new("RGB", (W, H))
    pixels = image.load()
    for y in range(H):
        for x in range(W):
            pixels[x, y] = ((x * 4) % 256, (y * 5 + x) % 256, (255 - x * 3 - y) % 256)
    colors = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255)]
    for index, color in enumerate(colors):
        for y in range(40, 48):
            for x in range(index * 10, index * 10 + 8):
                pixels[x, y] = color
    return image


def main():
    with tempfile.TemporaryDirectory() as work:
        tool = os.path.join(work, "make-display-p3-icc")
        subprocess.run(["cc", os.path.join(HERE, "make-display-p3-icc.c"), "-llcms2", "-o", tool], check=True)
        subprocess.run([tool, os.path.join(OUT, "DisplayP3.icc")], check=True)
    shutil.copy("/usr/share/color/icc/compatibleWithAdobeRGB1998.icc", os.path.join(OUT, "AdobeRGB.icc"))
    shutil.copy("/usr/share/color/icc/colord/ProPhotoRGB.icc", os.path.join(OUT, "ProPhotoRGB.icc"))
    profile = lambda name: open(os.path.join(OUT, name), "rb").read()
    image = pattern()
    image.save(os.path.join(OUT, "p3.jpg"), quality=95, icc_profile=profile("DisplayP3.icc"))
    image.save(os.path.join(OUT, "adobergb.png"), icc_profile=profile("AdobeRGB.icc"))
    image.save(os.path.join(OUT, "prophoto.webp"), lossless=True, icc_profile=profile("ProPhotoRGB.icc"))
    image.save(os.path.join(OUT, "noprofile.png"))


if __name__ == "__main__":
    main()
