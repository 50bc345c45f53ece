#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether this process runs under ThreadSanitizer (`swift test --sanitize=thread`), whose instrumentation makes
/// every thread several times slower: checks that wait for something to happen "soon" widen their limits under it
/// rather than fail on a busy machine.
enum Sanitizers {
    static let isThreadSanitizerActive: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
}
