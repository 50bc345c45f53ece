// processor-timer OPERATION FILE WIDTH HEIGHT [RUNS]: times one NukeCore processor on the opaque RGBA pixels in
// FILE (WIDTH × HEIGHT, tightly packed), as built: `nuke-bench processors` builds this executable both with
// `-c debug` and `-c release` and reports the ratio of the two (how much slower an app's debug build is).
// OPERATION is `resize-SIDE` (aspect-fit into SIDE × SIDE pixels) or `blur-RADIUS`. Runs the processor once
// unmeasured, then RUNS times (default 3), and prints `RESULT` and each run's wall time in milliseconds.
import Foundation
import NukeCore

let arguments = CommandLine.arguments
guard arguments.count >= 5, let width = Int(arguments[3]), let height = Int(arguments[4]) else {
    print("usage: processor-timer resize-SIDE|blur-RADIUS FILE WIDTH HEIGHT [RUNS]")
    exit(2)
}
let runs = arguments.count > 5 ? Int(arguments[5]) ?? 3 : 3
let processor: any ImageProcessing
if arguments[1].hasPrefix("resize-"), let side = Int(arguments[1].dropFirst("resize-".count)) {
    processor = ImageProcessors.Resize(
        size: CGSize(width: side, height: side), unit: .pixels, contentMode: .aspectFit)
} else if arguments[1].hasPrefix("blur-"), let radius = Int(arguments[1].dropFirst("blur-".count)) {
    processor = ImageProcessors.GaussianBlur(radius: radius)
} else {
    print("processor-timer: unknown operation \(arguments[1])")
    exit(2)
}
let image: PlatformImage
do {
    let pixels = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    var decoded = try PlatformImage(width: width, height: height, rgba: [UInt8](pixels))
    decoded.isOpaque = true
    image = decoded
} catch {
    print("processor-timer: cannot read \(arguments[2]): \(error)")
    exit(1)
}

func milliseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

var times: [Double] = []
for run in 0...runs {
    let time = milliseconds {
        guard processor.process(image) != nil else {
            print("processor-timer: \(arguments[1]) failed")
            exit(1)
        }
    }
    if run > 0 { times.append(time) }
}
print("RESULT " + times.map { String(format: "%.3f", $0) }.joined(separator: " "))
