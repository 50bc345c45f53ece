public import NukeCore

/// A conformance suite for `DataCaching`: checks that a cache keeps the protocol's contract.
///
/// Third parties run it against their own cache from their tests. Swift Testing can't export `@Test`s, so
/// each check is an async function that throws a ``Failure`` describing the first violated expectation:
///
/// ```swift
/// import NukeTestKit
/// import Testing
///
/// let conformance = DataCachingConformance(makeCache: { MyCache() }, flush: { await $0.flush() })
///
/// @Test(arguments: conformance.checks)
/// func myCacheConforms(_ check: DataCachingConformance<MyCache>.Check) async throws {
///     try await conformance.run(check)
/// }
/// ```
///
/// or all at once: `try await conformance.runAll()`.
///
/// What is checked: misses for unknown keys; stored data is readable at once and after a flush; replace,
/// remove and `removeAll` (staged and flushed, in order); distinct keys never share data (empty, long,
/// Unicode, path-like keys); canonically equivalent keys (equal `String`s, different bytes) get the same answers
/// before and after a flush; binary and large payloads round-trip exactly; `containsData` agrees with
/// `cachedData`; concurrent readers see only data that was stored for the key; and, if you pass `reopen`,
/// flushed data survives a new instance over the same storage.
///
/// Each check creates its own cache with `makeCache` and passes it to `cleanUp` afterwards, even if it failed.
public struct DataCachingConformance<Cache: DataCaching>: Sendable {
    /// One check of the suite.
    public struct Check: Sendable, CustomStringConvertible {
        /// A short identifier, e.g. `"removeAllDeletesEverything"`.
        public let name: String
        let body: @Sendable (DataCachingConformance, Cache) async throws -> Void

        public var description: String { name }
    }

    /// A violated expectation: which check, what was expected and what happened.
    public struct Failure: Error, CustomStringConvertible {
        /// The ``Check/name`` of the check that failed.
        public let check: String
        /// What went wrong, with the keys and sizes involved.
        public let message: String

        public var description: String { "DataCachingConformance.\(check): \(message)" }
    }

    /// Every failure of a ``runAll()``.
    public struct Failures: Error, CustomStringConvertible {
        public let failures: [Failure]

        public var description: String {
            "\(failures.count) DataCaching conformance check(s) failed:\n"
                + failures.map { "- \($0)" }.joined(separator: "\n")
        }
    }

    let makeCache: @Sendable () async throws -> Cache
    let flush: @Sendable (Cache) async throws -> Void
    let reopen: (@Sendable (Cache) async throws -> Cache)?
    let cleanUp: @Sendable (Cache) async throws -> Void

    /// Creates a suite.
    ///
    /// - Parameters:
    ///   - makeCache: Returns a new, empty cache; called once per check.
    ///   - flush: Waits until everything stored so far is persisted (for caches that write in the background).
    ///   - reopen: Returns a new instance over the same storage as the given, flushed cache, or `nil` (the
    ///     default) for a cache that keeps nothing between instances: the persistence check is then left out.
    ///   - cleanUp: Disposes of a cache after its check (e.g. deletes its directory).
    public init(
        makeCache: @escaping @Sendable () async throws -> Cache,
        flush: @escaping @Sendable (Cache) async throws -> Void = { _ in },
        reopen: (@Sendable (Cache) async throws -> Cache)? = nil,
        cleanUp: @escaping @Sendable (Cache) async throws -> Void = { _ in }
    ) {
        self.makeCache = makeCache
        self.flush = flush
        self.reopen = reopen
        self.cleanUp = cleanUp
    }

    /// The checks that apply to this cache, in a fixed order.
    public var checks: [Check] {
        Self.allChecks.filter { reopen != nil || $0.name != "flushedDataSurvivesReopening" }
    }

    /// Runs one check on a new cache from `makeCache`.
    ///
    /// - Throws: A ``Failure`` for the first violated expectation, or what `makeCache`, `flush`, `reopen` or
    ///   `cleanUp` threw.
    public func run(_ check: Check) async throws {
        let cache = try await makeCache()
        do {
            try await check.body(self, cache)
        } catch {
            try? await cleanUp(cache)
            throw error
        }
        try await cleanUp(cache)
    }

    /// Runs every check in ``checks``.
    ///
    /// - Throws: ``Failures`` listing every check that failed.
    public func runAll() async throws {
        var failures: [Failure] = []
        for check in checks {
            do {
                try await run(check)
            } catch let failure as Failure {
                failures.append(failure)
            } catch {
                failures.append(Failure(check: check.name, message: "threw \(error)"))
            }
        }
        if !failures.isEmpty { throw Failures(failures: failures) }
    }
}
