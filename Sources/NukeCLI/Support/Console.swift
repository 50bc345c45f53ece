#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation

/// Writes to standard output and standard error, and draws a progress bar on standard error when it is a
/// terminal. Lines printed while a bar is shown erase the bar first and redraw it after, so output never
/// interleaves with it. Thread-safe: every write happens under one lock.
final class Console: @unchecked Sendable {
    // @unchecked: `bar` is read and written only while `lock` is held; the rest is immutable.
    private let lock = NSLock()
    private var bar: String?
    /// `true` when standard error is a terminal: progress is drawn as a bar, else not at all.
    let isInteractive: Bool

    /// The console of this process.
    static let shared = Console()

    private init() {
        isInteractive = isatty(2) == 1
    }

    /// Prints `line` on standard output.
    func print(_ line: String) {
        write(line + "\n", to: 1)
    }

    /// Prints `line` on standard error.
    func error(_ line: String) {
        write(line + "\n", to: 2)
    }

    /// Shows (or replaces) the progress bar: `label` and `completed` of `total` as a bar. Does nothing when
    /// standard error isn't a terminal.
    func progress(_ label: String, completed: Int, total: Int) {
        guard isInteractive else { return }
        let width = 30
        let filled = total > 0 ? min(width, completed * width / total) : 0
        let text =
            "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(completed)/\(total) \(label)"
        lock.withLock {
            bar = String(text.prefix(100))
            Self.writeAll("\r\u{1B}[2K" + (bar ?? ""), to: 2)
        }
    }

    /// Removes the progress bar, if shown.
    func clearProgress() {
        guard isInteractive else { return }
        lock.withLock {
            guard bar != nil else { return }
            bar = nil
            Self.writeAll("\r\u{1B}[2K", to: 2)
        }
    }

    private func write(_ text: String, to fd: Int32) {
        lock.withLock {
            if bar != nil { Self.writeAll("\r\u{1B}[2K", to: 2) }
            Self.writeAll(text, to: fd)
            if let bar { Self.writeAll(bar, to: 2) }
        }
    }

    private static func writeAll(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
