public import Foundation

extension CurlDataLoader {
    /// The knobs of a ``CurlDataLoader``. Every property has a working default.
    public struct Configuration: Sendable {
        /// The longest a connection attempt may take, in seconds (default 30). A request's shorter
        /// `timeoutInterval` lowers it for that request.
        public var connectTimeout: TimeInterval = 30

        /// The longest a whole transfer may take, in seconds; `nil` (the default) means no limit beyond the
        /// request's idle timeout.
        public var timeout: TimeInterval?

        /// How many redirects to follow (default 10); `0` doesn't follow redirects, so a 3xx response fails
        /// with its status. Redirects go only to `http`/`https` URLs; past the limit the load fails with
        /// ``CurlError/Code/tooManyRedirects``.
        public var maximumRedirects = 10

        /// The most transfers to one host (scheme, host and port) running at a time (default 6, as browsers do;
        /// `0` = no limit) — over HTTP/1.1, the most connections to the host. Transfers beyond it wait in the
        /// loader, in order, and reach curl as running ones finish. Once a transfer to a host completed over
        /// HTTP/2, up to 100 of its transfers run at once, multiplexed over one connection.
        ///
        /// The pipeline's `dataLoadingQueue` (6 by default) bounds concurrency too. (curl's own
        /// `CURLMOPT_MAX_HOST_CONNECTIONS` isn't used: its queue can strand a waiting transfer until the
        /// connect timeout.)
        public var maximumConnectionsPerHost = 6

        /// The most transfers running at a time over all hosts; `0` (the default) means no limit. Works like
        /// ``maximumConnectionsPerHost``.
        public var maximumConnections = 0

        /// The HTTP version to ask for.
        public enum HTTPVersion: Sendable, Hashable {
            /// HTTP/2 over TLS when the server offers it through ALPN, else HTTP/1.1; HTTP/1.1 in cleartext.
            case automatic
            /// HTTP/1.1 only.
            case http1_1
            /// HTTP/2 over TLS (ALPN) and an `Upgrade: h2c` attempt in cleartext, falling back to HTTP/1.1.
            case http2
            /// HTTP/2 without negotiation ("prior knowledge"): cleartext h2c for servers known to speak it.
            ///
            /// With libcurl older than 8.0 (Debian 12 ships 7.88.1) a reused prior-knowledge connection fails
            /// with "Error in the HTTP2 framing layer" (curl/curl#10634), so there each transfer gets its own
            /// connection — correct, but neither kept alive nor multiplexed. HTTP/2 over TLS is unaffected.
            case http2PriorKnowledge
        }

        /// The HTTP version preference (default ``HTTPVersion/automatic``).
        public var httpVersion = HTTPVersion.automatic

        /// Whether transfers to the same host share one HTTP/2 connection (default `true`); new transfers wait
        /// for a connection being set up rather than opening another.
        public var isMultiplexingEnabled = true

        /// The `User-Agent` header, unless the request sets its own; `nil` sends none.
        public var userAgent: String? = "Nuke (libcurl/\(CurlDataLoader.curlVersion))"

        /// Whether to ask for compressed responses (`Accept-Encoding` with every coding this libcurl decodes —
        /// gzip and deflate at least) and decode them (default `true`). `didReceiveData` gets decoded bytes. A body
        /// whose `Content-Encoding` or `Transfer-Encoding` names a coding this libcurl doesn't decode arrives as it
        /// came, with its headers, rather than failing the load (as browsers do).
        public var acceptsCompressedResponses = true

        /// Whether the server's TLS certificate and host name are verified (default `true`). Turn off only for
        /// tests against self-signed servers.
        public var verifiesTLSPeer = true

        /// A PEM file of trusted CA certificates (`CCurlShim_OPT_CAINFO`); `nil` uses libcurl's default bundle.
        public var caBundlePath: String?

        /// A directory of trusted CA certificates (`CCurlShim_OPT_CAPATH`, hashed names); `nil` uses the default.
        public var caDirectoryPath: String?

        /// Where requests go through.
        public enum Proxy: Sendable, Hashable {
            /// The usual environment variables, as curl reads them: `http_proxy`, `https_proxy`/`HTTPS_PROXY`,
            /// `all_proxy`/`ALL_PROXY`, and `no_proxy`/`NO_PROXY` for exceptions.
            case environment
            /// No proxy, whatever the environment says.
            case none
            /// This proxy, e.g. `http://proxy.local:3128` or `socks5h://127.0.0.1:1080`.
            case url(String)
        }

        /// The proxy to use (default ``Proxy/environment``).
        public var proxy = Proxy.environment

        /// The size of curl's receive buffer in bytes (default 100 KB, what the `curl` command uses; `0` keeps
        /// libcurl's default of 16 KB): how much one read from a connection can return. Each transfer running (and
        /// each of the up to 16 idle handles a loader keeps for reuse) holds one. The reads of one pass of curl's loop
        /// are passed to `didReceiveData` together, so a small body is usually one chunk; once the `HTTPURLResponse`
        /// is ready, every 64 KB of them goes out without waiting for the end of the pass, so a large download's
        /// progress moves as its bytes arrive. Reads before the response wait for it (at most 1 MB).
        public var receiveBufferSize = 100 * 1024

        /// Decides, for each connection the loader is about to open, whether it may: called with the numeric address
        /// (`203.0.113.7`, `2001:db8::1`) and port of every address curl tries — each answer of the DNS lookup, on the
        /// first request and on every redirect hop — before the socket is connected. Returning `false` refuses that
        /// address (curl tries the host's next one); a load whose addresses are all refused fails with
        /// ``CurlError/connectionRefused(address:url:)``. Because it sees the address actually connected, it holds
        /// against DNS rebinding and redirects, which a check of the URL's host can't. With a proxy, the proxy's
        /// address is what it sees. `nil` (the default) allows every address. Called on the loader's thread: keep
        /// it fast and non-blocking.
        public var allowsConnection: (@Sendable (_ address: String, _ port: Int) -> Bool)?

        /// Creates the default configuration.
        public init() {}
    }
}
