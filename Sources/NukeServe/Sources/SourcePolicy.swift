public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Which source URLs a request may name, and where `local:///` sources live.
public struct SourcePolicy: Sendable {
    /// Where a source is read from, once allowed.
    public enum Location: Sendable, Hashable {
        /// An `http(s)` URL, loaded through the pipeline's loader (whose connections ``addresses`` checks).
        case remote(URL)
        /// A file under ``SourcePolicy/localRoot``, symlinks resolved.
        case local(URL)
    }

    /// Source URL prefixes that are allowed (`https://images.example.com/photos/`); empty allows every `http(s)`
    /// source (subject to ``addresses``). A source matches a prefix when its scheme, host and port are the prefix's
    /// (compared as parsed URLs, so `https://images.example.com.evil.net/` or `https://images.example.com@evil.net/`
    /// don't match `https://images.example.com`) and its path starts with the prefix's path. Redirects are the
    /// loader's: `nuke serve` follows none when prefixes are listed. `local:///` sources are allowed only with a
    /// ``localRoot``, whatever this says.
    public var allowedPrefixes: [String] = []
    /// The directory `local:///path` sources are read from; `nil` refuses them.
    public var localRoot: URL?
    /// The addresses remote sources may connect to.
    public var addresses = SourceAddressPolicy()

    /// The default policy: any public `http(s)` source, no local ones.
    public init(allowedPrefixes: [String] = [], localRoot: URL? = nil, addresses: SourceAddressPolicy = .init()) {
        self.allowedPrefixes = allowedPrefixes
        self.localRoot = localRoot
        self.addresses = addresses
    }

    /// Where `source` (a decoded source URL from ``ProcessingURL/source``) is read from.
    ///
    /// - Throws: ``ServeError/Kind/badRequest`` for a URL that isn't `http(s)://host…` or `local:///…`;
    ///   ``ServeError/Kind/forbidden`` for a source outside the allowed prefixes, a literal address the address policy
    ///   refuses, a `local:` source without a root or whose path (with `..` or through a symlink) leaves it;
    ///   ``ServeError/Kind/notFound`` for a local file that doesn't exist.
    public func locate(_ source: String) throws(ServeError) -> Location {
        let lowercased = source.lowercased()
        if lowercased.hasPrefix("local://") { return try locateLocal(source) }
        guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") else {
            throw ServeError(.badRequest, "unsupported source '\(source.prefix(80))' (http://, https:// or local:///)")
        }
        guard let url = URL(string: source), let host = url.host, !host.isEmpty else {
            throw ServeError(.badRequest, "the source '\(source.prefix(80))' is not a valid URL")
        }
        guard allowedPrefixes.isEmpty || allowedPrefixes.contains(where: { Self.url(url, isUnder: $0) }) else {
            throw ServeError(.forbidden, "the source '\(source.prefix(80))' is not under an allowed prefix")
        }
        // A literal address is refused here already; names are checked on every address they resolve to, when the
        // loader connects.
        if let address = IPAddress(host) { try addresses.check(address) }
        return .remote(url)
    }

    private func locateLocal(_ source: String) throws(ServeError) -> Location {
        guard let localRoot else {
            throw ServeError(.forbidden, "local sources are not enabled (no local root configured)")
        }
        let path = source.dropFirst("local://".count)
        guard path.hasPrefix("/") else {
            throw ServeError(.badRequest, "a local source is local:///path, got '\(source.prefix(80))'")
        }
        guard !path.contains("\0") else {
            throw ServeError(.badRequest, "the local source '\(source.prefix(80))' contains a NUL character")
        }
        let components = path.split(separator: "/")
        guard !components.contains(where: { $0 == ".." || $0 == "." }) else {
            throw ServeError(.forbidden, "the local source '\(source.prefix(80))' leaves the local root")
        }
        guard let root = Self.realPath(localRoot.path) else {
            throw ServeError(.internalError, "the local root \(localRoot.path) does not exist")
        }
        let candidate = root + "/" + components.joined(separator: "/")
        guard let resolved = Self.realPath(candidate) else {
            throw ServeError(.notFound, "no such local source: \(path.prefix(80))")
        }
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw ServeError(.forbidden, "the local source '\(source.prefix(80))' leaves the local root")
        }
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ServeError(.notFound, "the local source '\(path.prefix(80))' is not a file")
        }
        return .local(URL(fileURLWithPath: resolved))
    }

    /// Whether `url` is under `prefix`: the same scheme, host (any case) and port (the scheme's default when none is
    /// given), and a path that starts with the prefix's. A prefix that doesn't parse matches nothing.
    static func url(_ url: URL, isUnder prefix: String) -> Bool {
        guard let allowed = URLComponents(string: prefix), let scheme = allowed.scheme?.lowercased(),
            let host = allowed.host?.lowercased(), !host.isEmpty,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return false }
        func port(_ components: URLComponents, _ scheme: String) -> Int? {
            components.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
        return components.scheme?.lowercased() == scheme && components.host?.lowercased() == host
            && port(components, scheme) == port(allowed, scheme) && components.user == nil
            && components.percentEncodedPath.hasPrefix(allowed.percentEncodedPath)
    }

    /// The canonical absolute path of `path` (symlinks resolved), or `nil` if it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
