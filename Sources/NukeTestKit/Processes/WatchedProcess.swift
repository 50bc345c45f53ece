import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A server process for tests (nginx, redis-server) that can't outlive the test process: it runs under a watchdog
/// shell that waits on a pipe only this process holds open, and stops the server (`SIGTERM`) when the pipe closes —
/// when ``stop()`` closes it, or when the test process exits or crashes.
///
/// The child gets an empty signal mask and default handlers (Dispatch threads block nearly every signal, and a shell
/// whose `SIGCHLD` is blocked waits forever), standard input from `/dev/null`, and no descriptor of ours but the
/// ones passed in `inheriting`, which it sees as 3, 4, ….
public final class WatchedProcess: @unchecked Sendable {
    // @unchecked: `pid` and `lifeline` are set in init and cleared by `stop()`, under `lock`.
    private let lock = NSLock()
    private var pid: pid_t
    private var lifeline: Int32

    /// Why a process couldn't be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` with `arguments` and `environment` (a `PATH` is added if missing).
    ///
    /// - Throws: ``SpawnError`` if the pipe or the process can't be made.
    public init(
        executable: String, arguments: [String], inheriting descriptors: [Int32] = [],
        environment: [String: String] = [:]
    ) throws {
        var pipeFDs: [Int32] = [-1, -1]
        // Close-on-exec from the start (a socket pair, since Glibc's module lacks pipe2): a process spawned by another
        // thread meanwhile must not inherit the write end, which would keep the watchdog from seeing this one end.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pipeFDs) == 0 else {
            throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        defer { close(pipeFDs[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Move the sources out of the way first so no dup2 target clobbers a later source.
        let sources = descriptors.map { fcntl($0, F_DUPFD_CLOEXEC, 100) }
        defer { for fd in sources { close(fd) } }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[0], 0)
        for (index, fd) in sources.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, fd, Int32(3 + index))
        }
        guard let closeFrom = Self.closeFromAction else {
            close(pipeFDs[1])
            throw SpawnError(description: "posix_spawn_file_actions_addclosefrom_np is missing")
        }
        _ = closeFrom(&actions, Int32(3 + descriptors.count))
        var variables = environment
        if variables["PATH"] == nil { variables["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin" }
        let watchdog = "\"$0\" \"$@\" </dev/null & child=$!; read -r _; kill -TERM $child; wait $child"
        let argv = (["/bin/sh", "-c", watchdog, executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(pipeFDs[1])
            throw SpawnError(description: String(cString: strerror(result)))
        }
        self.pid = pid
        lifeline = pipeFDs[1]
    }

    deinit {
        stop()
    }

    /// Stops the process and waits for it (killing the watchdog if it hasn't finished within 10 s). Safe to call
    /// more than once.
    public func stop() {
        let (pid, lifeline) = lock.withLock {
            defer { (self.pid, self.lifeline) = (0, -1) }
            return (self.pid, self.lifeline)
        }
        guard pid > 0 else { return }
        close(lifeline)  // The watchdog sends SIGTERM and waits for the child.
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: killer)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        killer.cancel()
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which the Swift Glibc module doesn't export.
    private static let closeFromAction:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let handle = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()
}
