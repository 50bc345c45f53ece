#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The parts of a ``DataCache`` that touch shared on-disk state: the directory lock, the journal, and names
/// for temporary files.
final class Disk: @unchecked Sendable {
    // @unchecked: used only on the owning cache's serial queue (and in its initializer, before that queue
    // has any work), so never from two threads at once.
    let layout: DirectoryLayout
    let lock: DirectoryLock
    let journal: Journal
    private var temporaryCounter = 0
    private let instanceTag = String(UInt32.random(in: .min ... .max), radix: 16)

    init(layout: DirectoryLayout) {
        self.layout = layout
        lock = DirectoryLock(layout: layout)
        journal = Journal(path: layout.journal)
    }

    /// A new path in the temporary directory. It starts with the process ID so that files left by a process
    /// that died can be recognised and removed.
    func makeTemporaryPath() -> String {
        temporaryCounter += 1
        return "\(layout.temporary)/\(getpid()).\(instanceTag).\(temporaryCounter)"
    }
}
