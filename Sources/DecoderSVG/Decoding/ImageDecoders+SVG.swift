public import Foundation
public import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ImageDecoders {
    /// Renders SVG with librsvg and cairo into a premultiplied RGBA `PlatformImage`.
    ///
    /// ## Size
    /// The render size is, in order:
    /// 1. the request's `ImageRequest.thumbnail`, fitted to the document's aspect ratio — scaling up as
    ///    well as down, since a vector image has no fixed resolution (see
    ///    `ImageRequest.ThumbnailOptions.vectorPixelSize(width:height:scale:)`);
    /// 2. otherwise the document's intrinsic size: its `width` and `height` in absolute units (px, in, cm,
    ///    mm, pt, pc at ``Configuration/dpi``), else its `viewBox` size (keeping the aspect ratio of the one
    ///    absolute dimension if only one is given), times the request's scale (the image's
    ///    `PlatformImage.scale` is set to it);
    /// 3. otherwise ``Configuration/defaultSize`` (300×150, as browsers do).
    ///
    /// The document is fitted into that size as its `preserveAspectRatio` says. The container keeps the
    /// original data in `ImageContainer.data` (a vector image can be rendered again at another size).
    ///
    /// ## Safety
    /// - The decoder **never loads anything the document references**: it gives librsvg no base URL, and
    ///   librsvg then refuses every `file:`, `http(s):` or relative reference (`<image>`, `<use>`,
    ///   XInclude, CSS imports, external entities); only `data:` URLs embedded in the document are used.
    /// - The render size is checked against ``Configuration/maximumPixelCount`` and cairo's limit of 32767
    ///   pixels a side before any pixel memory is allocated; librsvg's own XML limits stay on (the
    ///   "unlimited" flag is never set).
    /// - Errors carry librsvg's message.
    ///
    /// ## Matching
    /// ``init(context:configuration:)`` accepts data sniffed as SVG (`<svg` after an optional XML prolog,
    /// BOM, comments or doctype), and data with no recognised magic bytes that comes with the MIME type
    /// `image/svg+xml` or from a URL whose path ends in `.svg`. Data sniffed as another format is never
    /// taken, whatever its URL.
    ///
    /// ## Registration
    /// ```swift
    /// ImageDecoders.SVG.register(in: .shared)
    /// // or: ImageDecoderRegistry.shared.register(ImageDecoders.SVG.init(context:))
    /// ```
    ///
    /// The decoder is stateless and `Sendable`; ``decode(_:)`` may be called from any thread.
    public struct SVG: ConfigurableImageDecoding, Sendable {
        /// The limits and defaults of the decoder.
        public let configuration: Configuration

        /// The size the request wants (its thumbnail and scale).
        let target: ImageDecodingTarget

        /// Creates a decoder that renders at the document's intrinsic size.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
            self.target = ImageDecodingTarget()
        }

        /// Returns a decoder with the given configuration if the context's data is SVG (see "Matching"), or
        /// `nil`. The decoder renders at the request's `ImageRequest.thumbnail` size and scale.
        public init?(context: ImageDecodingContext, configuration: Configuration) {
            guard Self.matches(context) else { return nil }
            self.configuration = configuration
            self.target = ImageDecodingTarget(request: context.request)
        }

        /// Renders the document.
        ///
        /// - Throws: ``Error``: `emptyData`, `invalidData` (librsvg's message), `imageTooLarge` or
        ///   `renderingFailed`.
        public func decode(_ data: Data) throws -> ImageContainer {
            guard !data.isEmpty else { throw Error.emptyData }
            let document = try SVGDocument(data: data, dpi: configuration.dpi)
            let size = try renderSize(for: document)
            var image = try SVGRenderer.render(document, width: size.width, height: size.height)
            if target.thumbnail == nil, target.scale.isFinite, target.scale > 0 {
                image.scale = Double(target.scale)
            }
            return ImageContainer(image: image, type: .svg, data: data)
        }

        /// The render size in pixels, checked against the limits.
        func renderSize(for document: SVGDocument) throws -> (width: Int, height: Int) {
            let intrinsic =
                document.intrinsicSize ?? (
                    Double(configuration.defaultSize.width), Double(configuration.defaultSize.height)
                )
            let size: (width: Int, height: Int)?
            if let thumbnail = target.thumbnail {
                size = thumbnail.vectorPixelSize(width: intrinsic.width, height: intrinsic.height, scale: target.scale)
            } else {
                let factor = target.scale.isFinite && target.scale > 0 ? Double(target.scale) : 1
                let width = (intrinsic.width * factor).rounded(.up)
                let height = (intrinsic.height * factor).rounded(.up)
                size =
                    width.isFinite && height.isFinite && width < 1e9 && height < 1e9
                    ? (max(1, Int(width)), max(1, Int(height))) : nil
            }
            let limit = configuration.maximumPixelCount
            guard let size else {
                throw Error.imageTooLarge(width: Int.max, height: Int.max, maximumPixelCount: limit)
            }
            try configuration.checkPixelCount(width: size.width, height: size.height, throwing: Error.self)
            guard size.width <= SVGRenderer.maximumDimension, size.height <= SVGRenderer.maximumDimension else {
                throw Error.imageTooLarge(width: size.width, height: size.height, maximumPixelCount: limit)
            }
            return size
        }

        static func matches(_ context: ImageDecodingContext) -> Bool {
            if let type = context.type {
                return type == .svg
            }
            if context.urlResponse?.mimeType?.lowercased() == "image/svg+xml" {
                return true
            }
            return context.request.url?.pathExtension.lowercased() == "svg"
        }
    }
}
