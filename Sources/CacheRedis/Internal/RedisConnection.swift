import Foundation
internal import CHiredis

/// A reply of the Redis server, copied out of hiredis's reply object.
enum RedisReply: Equatable {
    case string(Data)
    case status(String)
    case integer(Int64)
    case array([RedisReply])
    case null
    case error(String)
}

/// Why a command didn't get a reply: the connection failed, timed out or was refused.
struct RedisConnectionError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One blocking hiredis connection. Not thread-safe: a pool hands it to one thread at a time. After any I/O error or
/// timeout it is broken (a late reply would answer the wrong command) and must be dropped.
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>
    private(set) var isBroken = false
    /// Whether it broke because a reply didn't come within the timeout (the server is slow or busy), not because
    /// the connection failed.
    private(set) var didTimeOut = false
    private var timeout: TimeInterval

    /// Connects to `endpoint` within `connectTimeout`; commands then wait at most `commandTimeout` for their reply.
    init(endpoint: RedisEndpoint, connectTimeout: TimeInterval, commandTimeout: TimeInterval) throws {
        let connectValue = Self.timeval(connectTimeout)
        let made: UnsafeMutablePointer<redisContext>?
        switch endpoint.address {
        case let .tcp(host, port): made = redisConnectWithTimeout(host, Int32(port), connectValue)
        case let .unix(path): made = redisConnectUnixWithTimeout(path, connectValue)
        }
        guard let made else { throw RedisConnectionError(message: "out of memory creating a Redis connection") }
        guard made.pointee.err == 0 else {
            let message = Self.errorString(made)
            redisFree(made)
            throw RedisConnectionError(message: "can't connect to \(endpoint): \(message)")
        }
        context = made
        timeout = commandTimeout
        _ = redisSetTimeout(context, Self.timeval(commandTimeout))
        if case .tcp = endpoint.address { _ = redisEnableKeepAlive(context) }
    }

    deinit {
        redisFree(context)
    }

    /// Sets how long the following commands wait for their reply.
    func setTimeout(_ seconds: TimeInterval) {
        guard seconds != timeout else { return }
        timeout = seconds
        _ = redisSetTimeout(context, Self.timeval(seconds))
    }

    /// Sends one command (its arguments as strings) and waits for its reply.
    func command(_ arguments: String...) throws -> RedisReply {
        try command(arguments.map { Data($0.utf8) })
    }

    /// Sends one command and waits for its reply.
    func command(_ arguments: [Data]) throws -> RedisReply {
        guard !isBroken else { throw RedisConnectionError(message: "the connection is broken") }
        let raw = Self.withoutSIGPIPE {
            withArguments(arguments) { argc, argv, lengths in
                redisCommandArgv(context, argc, argv, lengths)
            }
        }
        guard let raw else {
            // A read that timed out fails with EAGAIN (the socket's SO_RCVTIMEO); anything else is a dead connection.
            let code = errno
            isBroken = true
            didTimeOut = code == EAGAIN || code == EWOULDBLOCK
            throw RedisConnectionError(message: Self.errorString(context))
        }
        defer { freeReplyObject(raw) }
        return Self.copy(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Calls `body` with C views of `arguments` (hiredis copies them into its output buffer).
    private func withArguments<R>(
        _ arguments: [Data], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
    ) -> R {
        // One contiguous buffer for every argument keeps the pointers valid for the whole call.
        var joined = Data()
        joined.reserveCapacity(arguments.reduce(0) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(joined.count)
            joined.append(argument)
        }
        let lengths = arguments.map(\.count)
        return joined.withUnsafeBytes { buffer in
            let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = offsets.map { offset in base.map { UnsafePointer($0 + offset) } }
            // An empty buffer has no base address; hiredis reads zero bytes of an empty argument.
            let empty: StaticString = ""
            for index in pointers.indices where pointers[index] == nil {
                pointers[index] = UnsafeRawPointer(empty.utf8Start).assumingMemoryBound(to: CChar.self)
            }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { body(Int32(arguments.count), argv.baseAddress!, $0.baseAddress!) }
            }
        }
    }

    /// Runs `body` with `SIGPIPE` blocked on this thread, and consumes the one a write to a closed connection raised,
    /// so a server that goes away can't kill the process (hiredis writes without `MSG_NOSIGNAL`). The process's
    /// handling of `SIGPIPE` is left as the app set it.
    private static func withoutSIGPIPE<R>(_ body: () -> R) -> R {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        let result = body()
        if !wasPending {
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &noWait)
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }

    private static func copy(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        switch Int32(value.type) {
        case REDIS_REPLY_STRING:
            return .string(value.str.map { Data(bytes: $0, count: value.len) } ?? Data())
        case REDIS_REPLY_STATUS:
            return .status(value.str.map { String(decoding: Data(bytes: $0, count: value.len), as: UTF8.self) } ?? "")
        case REDIS_REPLY_ERROR:
            return .error(value.str.map { String(decoding: Data(bytes: $0, count: value.len), as: UTF8.self) } ?? "")
        case REDIS_REPLY_INTEGER:
            return .integer(value.integer)
        case REDIS_REPLY_ARRAY:
            guard let elements = value.element else { return .array([]) }
            return .array((0..<value.elements).compactMap { elements[$0].map(copy) })
        default:
            return .null
        }
    }

    private static func errorString(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "error \(context.pointee.err)" : String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func timeval(_ seconds: TimeInterval) -> Glibc.timeval {
        let clamped = max(0.001, min(seconds, 3600))
        let whole = clamped.rounded(.down)
        return Glibc.timeval(tv_sec: Int(whole), tv_usec: Int((clamped - whole) * 1_000_000))
    }
}
