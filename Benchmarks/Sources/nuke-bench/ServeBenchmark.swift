import Foundation

/// Scenario 13, `nuke serve` as a service, against thumbor and nginx on the same machine, all side by side on
/// 127.0.0.1 fetching one 1600 px JPEG from one local origin nginx, loaded by `wrk -t2 -c8` (see `Wrk`):
/// - a cached result (the memory tier) against nginx serving the same bytes as a static file. Goal ≥ 0.5× its
///   requests/s (≤ 2× the time per request);
/// - an uncached 1600 → 300 px JPEG thumbnail: every request names a source URL (a `?r=` parameter the origin
///   ignores) that no earlier request named, so no server has the result or the source cached. Goal ≥ 2× thumbor's
///   requests/s and ≥ 1× nginx `image_filter`'s, a p99 latency below both;
/// - the same with `Accept: image/webp` and `image/avif` against thumbor's auto-format (nginx has none);
/// - peak RSS (`VmHWM`) against thumbor's after all of it, of a second `nuke serve` with `--memory-cache 0` that takes
///   the same uncached load (thumbor keeps nothing in memory either). Goal below. The default instance's, with its
///   256 MB of memory tiers, is reported beside it;
/// - `scripts/fleet.sh` fleets of 2 and 1 instances and the lone `nuke serve` on a cached result (`ServeFleet`).
///
/// thumbor runs as one process, as it does by default (`--processes 1`); `nuke serve` uses its default workers
/// (the number of cores) and nginx `worker_processes auto`.
struct ServeBenchmark {
    let context: BenchContext
    let section = "serve"

    /// A server under load in one measurement: where it listens and which paths it is asked for.
    struct Target {
        var name: String
        var base: String
        /// The one path every request asks for (a cached result), or …
        var path: String?
        /// … a template whose `{n}` makes every request distinct, given a tag unique to the wrk run.
        var template: ((String) -> String)?
        var accept: String?
    }

    static let cachedName = "cached result (memory tier), c8"
    static let uncachedName = "uncached 1600 → 300 px"
    static let rssName = "peak RSS after the uncached rows"

    private var seconds: Int { context.isQuick ? 2 : 5 }
    private var rounds: Int { 5 }

    func run() async throws {
        let formats: [(name: String, accept: String?, mime: String)] = [
            ("JPEG", nil, "image/jpeg"), ("WebP (Accept: image/webp)", "image/webp", "image/webp"),
            ("AVIF (Accept: image/avif)", "image/avif", "image/avif"),
        ]
        let names =
            [Self.cachedName, Self.rssName, ServeFleet.name] + formats.map { "\(Self.uncachedName) \($0.name)" }
        guard context.selected(section) || names.contains(where: context.selected) else { return }
        if let reason = Wrk.executable == nil
            ? "wrk is missing (scripts/setup.sh --benchmarks)" : ServeNginx.unavailableReason
        {
            context.report.add(.skipped(section: section, name: Self.cachedName, reference: "nginx", reason: reason))
            return
        }
        let nukePath = try ProcessInfo.processInfo.environment["NUKE_BIN"] ?? NukeCLIBinary.path()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-bench-serve-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let jpeg = try benchJPEG(width: 1600, height: 1067)
        let nginx = try ServeNginx(files: ["photo.jpg": jpeg], directory: directory.appendingPathComponent("nginx"))
        defer { nginx.stop() }
        let origin = "http://127.0.0.1:\(nginx.originPort)/photo.jpg"
        let nuke = try NukeServeProcess(executable: nukePath, directory: directory.appendingPathComponent("nuke"))
        defer { nuke.process.stop() }
        let lean = try NukeServeProcess(
            executable: nukePath, directory: directory.appendingPathComponent("nuke-lean"),
            arguments: ["--memory-cache", "0"])
        defer { lean.process.stop() }
        let thumbor: ThumborProcess?
        do {
            thumbor = try ThumborProcess(directory: directory.appendingPathComponent("thumbor"))
        } catch {
            thumbor = nil
            print("serve: thumbor rows skipped: \(error)")
        }
        defer { thumbor?.process.stop() }
        try nginx.waitUntilReady()

        let runID = String(UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970 * 1000)), radix: 36)
        if context.selected(section) || context.selected(Self.cachedName) {
            try await measureCached(nuke: nuke, nginx: nginx, origin: origin)
        }
        for (index, format) in formats.enumerated()
        where context.selected(section) || context.selected("\(Self.uncachedName) \(format.name)") {
            // thumbor's result storage keeps an AVIF result under the URL alone (WebP ones apart): a probe per format.
            let probe = "probe\(index)"
            let nukeTarget = Target(
                name: "nuke serve", base: nuke.base,
                template: { tag in
                    "/insecure/rs:fit:300:0/plain/" + Self.percentEncoded("\(origin)?r=\(runID)\(tag)") + "{n}"
                }, accept: format.accept)
            try Self.check(nukeTarget, mime: format.mime, probe: probe)
            // The same load on the instance without memory tiers, for the RSS rows (its rates are not reported).
            var leanTarget = nukeTarget
            leanTarget.name = "nuke serve --memory-cache 0"
            leanTarget.base = lean.base
            try Self.check(leanTarget, mime: format.mime, probe: probe)
            var references: [Target] = []
            if let thumbor {
                let target = Target(
                    name: "thumbor", base: thumbor.base,
                    template: { tag in
                        "/unsafe/300x0/127.0.0.1:\(nginx.originPort)/photo.jpg%3Fr%3D\(runID)\(tag)" + "{n}"
                    }, accept: format.accept)
                try Self.check(target, mime: format.mime, probe: probe)
                references.append(target)
            }
            if format.accept == nil {
                let target = Target(
                    name: "nginx image_filter", base: "http://127.0.0.1:\(nginx.filterPort)",
                    template: { tag in "/photo.jpg?r=\(runID)\(tag){n}" })
                try Self.check(target, mime: format.mime, probe: probe)
                references.append(target)
            }
            guard !references.isEmpty else {
                context.report.add(
                    .skipped(
                        section: section, name: "\(Self.uncachedName) \(format.name)", reference: "thumbor",
                        reason: "thumbor is not installed (scripts/setup.sh --benchmarks)"))
                continue
            }
            let results = try await measure([nukeTarget, leanTarget] + references)
            for (index, reference) in references.enumerated() {
                addRows(
                    name: "\(Self.uncachedName) \(format.name), c8", ours: results[0], theirs: results[index + 2],
                    reference: reference.name, throughputGoal: .atMost(reference.name == "thumbor" ? 0.5 : 1.0),
                    latencyGoal: .atMost(1.0))
            }
        }
        if let thumbor, context.selected(section) || context.selected(Self.rssName) {
            let theirs = try thumbor.process.peakResidentMegabytes()
            context.report.add(
                BenchRow(
                    section: section, name: "\(Self.rssName), --memory-cache 0", reference: "thumbor (1 process)",
                    unit: "MB", ours: [try lean.process.peakResidentMegabytes()], theirs: [theirs], goal: .atMost(1.0),
                    note: "VmHWM of each server process after every uncached row; neither keeps images in memory"))
            context.report.add(
                BenchRow(
                    section: section, name: "\(Self.rssName), default --memory-cache 256",
                    reference: "thumbor (1 process)", unit: "MB", ours: [try nuke.process.peakResidentMegabytes()],
                    theirs: [theirs], goal: .info,
                    note: "the default instance's 256 MB of memory tiers fill up with the uncached results"))
        }
        thumbor?.process.stop()
        if context.selected(section) || context.selected(ServeFleet.name) || context.selected(ServeFleet.balancerName) {
            try await ServeFleet(context: context, seconds: seconds, rounds: rounds).run(
                nukePath: nukePath, origin: origin, direct: nuke.base,
                directory: directory.appendingPathComponent("fleet"))
        }
    }

    /// The cached row: one URL, made once before measuring, against nginx sending those bytes from a file.
    private func measureCached(nuke: NukeServeProcess, nginx: ServeNginx, origin: String) async throws {
        let path = "/insecure/rs:fit:300:0/plain/" + Self.percentEncoded(origin)
        let made = try HTTPProbe.get(nuke.base + path)
        guard made.status == 200, made.contentType == "image/jpeg" else {
            throw BenchmarkError(description: "nuke serve answered \(made.status) \(made.contentType) for \(path)")
        }
        try made.body.write(to: nginx.root.appendingPathComponent("result.jpg"))
        let results = try await measure([
            Target(name: "nuke serve", base: nuke.base, path: path),
            Target(name: "nginx static", base: "http://127.0.0.1:\(nginx.staticPort)", path: "/result.jpg"),
        ])
        addRows(
            name: Self.cachedName, ours: results[0], theirs: results[1],
            reference: "nginx, the same \(made.body.count) bytes as a static file", throughputGoal: .atMost(2.0),
            latencyGoal: .info)
    }

    /// A throughput row (ms per request, 1000 ÷ requests/s: lower is better, like every row) and a p99 row.
    func addRows(
        name: String, ours: [Wrk.Result], theirs: [Wrk.Result], reference: String, throughputGoal: Goal,
        latencyGoal: Goal
    ) {
        let rates =
            "req/s \(Int(median(ours.map(\.requestsPerSecond)))) vs \(Int(median(theirs.map(\.requestsPerSecond))))"
        var goalText = ""
        if case let .atMost(value) = throughputGoal {
            goalText = " (goal ≥ \(String(format: "%g", 1 / value))× the requests/s)"
        }
        context.report.add(
            BenchRow(
                section: section, name: "\(name): 1000 ÷ req/s", reference: reference, unit: "ms/req",
                ours: ours.map(\.millisecondsPerRequest), theirs: theirs.map(\.millisecondsPerRequest),
                goal: throughputGoal, note: "\(rates)\(goalText); \(rounds) × \(seconds) s wrk runs each"))
        context.report.add(
            BenchRow(
                section: section, name: "\(name): p99 latency", reference: reference, unit: "ms",
                ours: ours.map(\.p99), theirs: theirs.map(\.p99), goal: latencyGoal,
                note: "p50 \(format(median(ours.compactMap { $0.percentiles[50] }))) vs "
                    + "\(format(median(theirs.compactMap { $0.percentiles[50] }))) ms"))
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Loads each target in turn, `rounds` times (rotating which goes first) after one shorter warm-up run each,
    /// and returns each target's wrk results, paired by round.
    func measure(_ targets: [Target]) async throws -> [[Wrk.Result]] {
        let wrk = Wrk()
        var invocation = 0
        func load(_ target: Target, seconds: Int) throws -> Wrk.Result {
            invocation += 1
            return try wrk.run(
                base: target.base, path: target.path, template: target.template?("i\(invocation)t"),
                accept: target.accept, seconds: seconds)
        }
        for target in targets { _ = try load(target, seconds: max(1, seconds / 2)) }
        var results = [[Wrk.Result]](repeating: [], count: targets.count)
        for round in 0..<rounds {
            for offset in targets.indices {
                let index = (round + offset) % targets.count
                results[index].append(try load(targets[index], seconds: seconds))
            }
        }
        return results
    }

    /// Asks `target` once (with a template, the path of tag `probe`) and throws unless it answers 200 with `mime`.
    static func check(_ target: Target, mime: String, probe: String = "probe") throws {
        let path = target.path ?? target.template?(probe).replacingOccurrences(of: "{n}", with: "0") ?? "/"
        let response = try HTTPProbe.get(target.base + path, accept: target.accept)
        guard response.status == 200, response.contentType == mime else {
            throw BenchmarkError(
                description: "\(target.name) answered \(response.status) \(response.contentType) for \(path), "
                    + "expected 200 \(mime)")
        }
    }

    /// `text` with everything but unreserved characters percent-encoded (a `plain` source of imgproxy's URLs).
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? text
    }
}
