public import Foundation

extension ImageProcessing where Self == ImageProcessors.Resize {
    /// Scales an image to `size`, keeping its aspect ratio (see ``ImageProcessors/Resize``).
    ///
    /// - Parameters:
    ///   - size: The target size.
    ///   - unit: The unit of `size`; points by default.
    ///   - contentMode: Whether the output fits inside or covers the target; `.aspectFill` by default.
    ///   - crop: With `.aspectFill`, crops the output to exactly the target size; `false` by default.
    ///   - upscale: Allows making images larger; `false` by default.
    public static func resize(
        size: CGSize,
        unit: ImageProcessingOptions.Unit = .points,
        contentMode: ImageProcessingOptions.ContentMode = .aspectFill,
        crop: Bool = false,
        upscale: Bool = false
    ) -> ImageProcessors.Resize {
        ImageProcessors.Resize(size: size, unit: unit, contentMode: contentMode, crop: crop, upscale: upscale)
    }

    /// Scales an image to `width`, keeping its aspect ratio (see ``ImageProcessors/Resize``).
    public static func resize(
        width: CGFloat, unit: ImageProcessingOptions.Unit = .points, upscale: Bool = false
    ) -> ImageProcessors.Resize {
        ImageProcessors.Resize(width: width, unit: unit, upscale: upscale)
    }

    /// Scales an image to `height`, keeping its aspect ratio (see ``ImageProcessors/Resize``).
    public static func resize(
        height: CGFloat, unit: ImageProcessingOptions.Unit = .points, upscale: Bool = false
    ) -> ImageProcessors.Resize {
        ImageProcessors.Resize(height: height, unit: unit, upscale: upscale)
    }
}

extension ImageProcessing where Self == ImageProcessors.Crop {
    /// Crops an image to `rect`, in pixels (see ``ImageProcessors/Crop``).
    public static func crop(rect: CGRect) -> ImageProcessors.Crop {
        ImageProcessors.Crop(rect: rect)
    }
}

extension ImageProcessing where Self == ImageProcessors.Circle {
    /// Crops an image to a centred square and cuts it to a circle (see ``ImageProcessors/Circle``).
    ///
    /// - Parameter border: A border along the inside of the circle; none by default.
    public static func circle(border: ImageProcessingOptions.Border? = nil) -> ImageProcessors.Circle {
        ImageProcessors.Circle(border: border)
    }
}

extension ImageProcessing where Self == ImageProcessors.RoundedCorners {
    /// Rounds the corners of an image (see ``ImageProcessors/RoundedCorners``).
    ///
    /// - Parameters:
    ///   - radius: The radius of the corners.
    ///   - unit: The unit of `radius`; points by default.
    ///   - border: A border along the inside of the edge; none by default.
    public static func roundedCorners(
        radius: CGFloat, unit: ImageProcessingOptions.Unit = .points, border: ImageProcessingOptions.Border? = nil
    ) -> ImageProcessors.RoundedCorners {
        ImageProcessors.RoundedCorners(radius: radius, unit: unit, border: border)
    }
}

extension ImageProcessing where Self == ImageProcessors.GaussianBlur {
    /// Blurs an image (see ``ImageProcessors/GaussianBlur``).
    ///
    /// - Parameter radius: The standard deviation of the blur in pixels; `8` by default.
    public static func gaussianBlur(radius: Int = 8) -> ImageProcessors.GaussianBlur {
        ImageProcessors.GaussianBlur(radius: radius)
    }
}

extension ImageProcessing where Self == ImageProcessors.Grayscale {
    /// Converts an image to shades of grey (see ``ImageProcessors/Grayscale``).
    public static func grayscale() -> ImageProcessors.Grayscale {
        ImageProcessors.Grayscale()
    }
}
