public import Foundation

extension MicroHTTPDServer {
    /// How a ``MicroHTTPDServer`` listens and how many connections and threads it uses.
    public struct Configuration: Sendable {
        /// The address to listen on: an IPv4 or IPv6 literal (`127.0.0.1`, `0.0.0.0`, `::1`, `::`), without brackets
        /// or zone. Default `127.0.0.1`, this machine only.
        public var address = "127.0.0.1"

        /// The TCP port; `0` (the default) picks a free one, which ``MicroHTTPDServer/port`` then reports.
        public var port: UInt16 = 0

        /// The number of threads that run libmicrohttpd's event loops, each with its own epoll set; at least 1.
        /// Handlers run in Swift tasks, not on these threads, so a few serve many slow requests. Default: the number
        /// of active processors, at least 2.
        public var workerThreads = max(2, ProcessInfo.processInfo.activeProcessorCount)

        /// The most connections open at once, shared evenly among the worker threads; further connections wait in
        /// the listen backlog until one closes. At least ``workerThreads``. Default 1,024.
        public var maximumConnections = 1024

        /// Seconds a connection may stay idle (no bytes read or written) before it is closed; rounded up to whole
        /// seconds, `0` for none. A connection whose handler is running is not idle. Default 30.
        public var connectionTimeout: TimeInterval = 30

        /// The largest request head accepted, in bytes: the request line and the header fields. A larger head is
        /// answered `431 Request Header Fields Too Large` without calling the handler. At least 1,024. Default
        /// 16 KiB.
        public var maximumRequestHeadBytes = 16 * 1024

        /// Makes the default configuration.
        public init() {}
    }
}
