import Foundation
import NukeCore
import NukeServe

/// What `nuke serve` reads from a request before anything is loaded.
enum ServeTargets {
    static let signer = try? URLSigner(pairs: [.init(hexKey: "0badc0de", hexSalt: "5a17")], signatureSize: 8)
    static let policy = SourcePolicy(allowedPrefixes: [], localRoot: nil, addresses: SourceAddressPolicy())

    /// The input: two bytes of source size, then the path; the path's text is also read as header values.
    static func url(_ data: Data) {
        var input = FuzzInput(data)
        let sourceWidth = 1 + Int(input.byte()) * 37
        let sourceHeight = 1 + Int(input.byte()) * 29
        let text = String(decoding: input.data, as: UTF8.self)
        for detection in FormatNegotiation.JXLDetection.allCases {
            let all = Set(OutputFormat.allCases)
            let preferred = FormatNegotiation.preferred(accept: text, available: all, jxl: detection)
            precondition(detection != .disabled || preferred != .jxl, "JPEG XL negotiated with detection off")
            let requested = FormatNegotiation.requested(.png, accept: text, available: all, jxl: detection)
            precondition(requested == .png || (detection == .enforced && requested == .jxl), "a URL's format lost")
        }
        _ = ResultETag.matches(ifNoneMatch: text, etag: "\"0123\"")
        if let address = IPAddress(text) { _ = SourceAddressPolicy.classify(address) }
        _ = AddressRange(text)
        guard let url = try? ProcessingURL(path: text) else { return }
        precondition(!url.source.isEmpty, "a parsed URL without a source")
        precondition(url.signedPath.hasPrefix("/"), "the signed path must start with /")
        _ = signer?.isValid(url.signature, for: url.signedPath)
        _ = try? policy.locate(url.source)
        let options = url.options
        precondition(options.width >= 0 && options.height >= 0 && options.dpr > 0, "options out of range")
        let plan = ResizePlan(sourceWidth: sourceWidth, sourceHeight: sourceHeight, options: options)
        precondition(plan.scaledWidth >= 1 && plan.scaledHeight >= 1, "an empty scaled size")
        precondition(
            plan.crop.x >= 0 && plan.crop.y >= 0 && plan.crop.width >= 1 && plan.crop.height >= 1
                && plan.crop.x + plan.crop.width <= plan.scaledWidth
                && plan.crop.y + plan.crop.height <= plan.scaledHeight,
            "the crop \(plan.crop) leaves the scaled \(plan.scaledWidth)×\(plan.scaledHeight)")
        // The canonical form names the options: parsing them again gives the same options.
        let again = try? ProcessingURL(path: "/_/" + options.canonicalDescription + "/plain/x")
        precondition(again?.options == options, "the canonical form \(options.canonicalDescription) reads differently")
    }
}
