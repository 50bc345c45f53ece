// Writes a Display P3 ICC profile (SMPTE EG 432-1 primaries, D65 white, the sRGB transfer curve) built with
// lcms2 to the path given, for scripts/make-color-fixtures.py: `cc make-display-p3-icc.c -llcms2`.
#include <lcms2.h>
#include <stdio.h>
int main(int argc, char **argv) {
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsCIExyYTRIPLE primaries = {{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};
    cmsFloat64Number params[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, params);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
    cmsMLU *mlu = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(mlu, "en", "US", "Display P3 (lcms2)");
    cmsWriteTag(profile, cmsSigProfileDescriptionTag, mlu);
    cmsSetProfileVersion(profile, 2.4);
    cmsSaveProfileToFile(profile, argv[1]);
    return 0;
}
