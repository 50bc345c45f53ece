#include "CHEIFShim.h"

#include <string.h>

int CHEIFShim_CopyRGBA(const struct heif_image *image, int width, int height, int opaque, uint8_t *output) {
    if (width <= 0 || height <= 0) return -1;
    if (heif_image_get_width(image, heif_channel_interleaved) != width
        || heif_image_get_height(image, heif_channel_interleaved) != height
        || heif_image_get_bits_per_pixel(image, heif_channel_interleaved) != 32) {
        return -1;
    }
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    const size_t row = (size_t)width * 4;
    if (plane == NULL || stride < 0 || (size_t)stride < row) return -1;
    for (int y = 0; y < height; y++) {
        uint8_t *destination = output + (size_t)y * row;
        memcpy(destination, plane + (size_t)y * (size_t)stride, row);
        if (opaque) {
            for (size_t x = 3; x < row; x += 4) destination[x] = 255;
        }
    }
    return 0;
}

size_t CHEIFShim_ICCProfileSize(const struct heif_image_handle *handle) {
    return heif_image_handle_get_raw_color_profile_size(handle);
}

struct heif_error CHEIFShim_CopyICCProfile(const struct heif_image_handle *handle, uint8_t *output, size_t size) {
    if (size == 0 || size != heif_image_handle_get_raw_color_profile_size(handle)) {
        struct heif_error error = {heif_error_Color_profile_does_not_exist, heif_suberror_Unspecified,
                                   "the image has no ICC profile of that size"};
        return error;
    }
    return heif_image_handle_get_raw_color_profile(handle, output);
}

struct heif_error CHEIFShim_ReadNCLX(const struct heif_image_handle *handle, CHEIFShimNCLX *nclx) {
    struct heif_color_profile_nclx *profile = NULL;
    struct heif_error error = heif_image_handle_get_nclx_color_profile(handle, &profile);
    if (error.code != heif_error_Ok) return error;
    nclx->colorPrimaries = (uint16_t)profile->color_primaries;
    nclx->transferCharacteristics = (uint16_t)profile->transfer_characteristics;
    nclx->matrixCoefficients = (uint16_t)profile->matrix_coefficients;
    nclx->fullRange = profile->full_range_flag;
    heif_nclx_color_profile_free(profile);
    return error;
}
