import DecoderGIF
import Foundation
import NukeCore
import Testing

/// Memory of a long animation, measured in a process of its own (an exit test), so that no other test's
/// allocations are counted: the peak resident size while the frames are iterated, over what it was before.
@Suite("GIF animation memory")
struct GIFMemoryTests {
    @Test("iterating a 300-frame 1000×1000 GIF holds at most two canvases, plus the frames the caller keeps")
    func iterationHoldsTwoCanvases() async {
        await #expect(processExitsWith: .success) {
            let canvas = 1000 * 1000 * 4
            let animation = try ImageDecoders.GIF.Animation(data: LongAnimation.data())

            // Frames dropped as soon as they're seen
            let dropped = try LongAnimation.peakGrowth(animation, keeping: 0)
            // The first 20 frames kept: the measurement sees each kept canvas
            let kept = try LongAnimation.peakGrowth(animation, keeping: 20)

            let report =
                "dropped: \(dropped.frames) frames, +\(dropped.bytes >> 20) MB; "
                + "20 kept: +\(kept.bytes >> 20) MB (a canvas is \(canvas >> 20) MB)"
            FileHandle.standardError.write(Data((report + "\n").utf8))
            guard dropped.frames == 300, kept.frames == 300 else { exit(2) }
            // Two canvases (the one drawn on and the frame handed out), and a page-rounding allowance.
            guard dropped.bytes <= 2 * canvas + (2 << 20) else { exit(3) }
            guard kept.bytes >= 18 * canvas, kept.bytes <= 22 * canvas + (2 << 20) else { exit(4) }
        }
    }
}

/// The 300-frame animation and its measurement (an exit test's body captures nothing, so they live here).
private enum LongAnimation {
    /// 300 frames over a 1000×1000 screen, each changing one pixel (so the file is small and every frame is a
    /// whole canvas to show), looping forever.
    static func data() -> Data {
        let frames = (0..<300).flatMap { index in
            GIFBytes.pixelFrame(left: index * 3, top: index * 3, index: UInt8(index % 2), delay: 4)
        }
        return GIFBytes.file(width: 1000, height: 1000, GIFBytes.loop(0) + frames)
    }

    /// Iterates every frame, keeping the first `keeping`, and returns how far the peak resident size rose.
    static func peakGrowth(
        _ animation: ImageDecoders.GIF.Animation, keeping: Int
    ) throws -> (frames: Int, bytes: Int) {
        let before = resetPeak()
        var kept: [PlatformImage] = []
        var frames = 0
        try animation.forEachFrame { frame in
            if kept.count < keeping {
                kept.append(frame.image)
            }
            frames += 1
        }
        let peak = statusValue("VmHWM")
        withExtendedLifetime(kept) {}
        return (frames, peak - before)
    }

    /// Resets the peak resident size to the current one (`/proc/self/clear_refs`, 5) and returns it.
    private static func resetPeak() -> Int {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        return statusValue("VmRSS")
    }

    /// A `/proc/self/status` field in bytes.
    private static func statusValue(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.split(separator: " ").dropFirst().first { Int($0) != nil }
            return (digits.flatMap { Int($0) } ?? 0) * 1024
        }
        return 0
    }
}
