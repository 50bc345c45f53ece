import NukeCore

/// The transforms built so far, one per profile and alpha layout, and the profiles lcms2 rejected.
///
/// Thread-safe. A transform is built outside the lock, so two threads that meet a new profile at the same moment
/// may both build one; the first stored wins.
final class LCMSTransformCache: Sendable {
    private struct Key: Hashable {
        var profile: ColorProfile
        var premultiplied: Bool
    }

    private struct State {
        var entries: [Key: Result<LCMSTransform, LCMSColorConverter.Error>] = [:]
        var transformsCreated = 0
        var hits = 0
    }

    private let state = LockedValueBox(State())
    private let capacity: Int
    private let intent: LCMSColorConverter.Intent

    init(capacity: Int, intent: LCMSColorConverter.Intent) {
        self.capacity = capacity
        self.intent = intent
    }

    var statistics: (transformsCreated: Int, hits: Int) {
        state.withLock { ($0.transformsCreated, $0.hits) }
    }

    /// The transform for `profile`, built on first use.
    func transform(for profile: ColorProfile, premultiplied: Bool) throws(LCMSColorConverter.Error) -> LCMSTransform {
        let key = Key(profile: profile, premultiplied: premultiplied)
        let cached = state.withLock { state -> Result<LCMSTransform, LCMSColorConverter.Error>? in
            let entry = state.entries[key]
            if entry != nil { state.hits += 1 }
            return entry
        }
        if let cached { return try cached.get() }
        let made = makeTransform(for: profile, premultiplied: premultiplied)
        let stored = state.withLock { state -> Result<LCMSTransform, LCMSColorConverter.Error> in
            if let existing = state.entries[key] { return existing }
            if state.entries.count >= capacity {
                state.entries.removeAll()
            }
            state.entries[key] = made
            if case .success = made { state.transformsCreated += 1 }
            return made
        }
        return try stored.get()
    }

    private func makeTransform(
        for profile: ColorProfile, premultiplied: Bool
    ) -> Result<LCMSTransform, LCMSColorConverter.Error> {
        let source: LCMSProfile?
        switch profile {
        case let .icc(data):
            source = LCMSProfile(iccData: data)
        case let .cicp(value):
            guard let made = LCMSProfile.make(cicp: value) else { return .failure(.unsupportedCICP(value)) }
            source = made
        }
        guard let source, let transform = LCMSTransform(from: source, premultiplied: premultiplied, intent: intent)
        else { return .failure(.invalidProfile) }
        return .success(transform)
    }
}
