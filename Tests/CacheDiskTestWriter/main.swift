// A child process for CacheDisk's multi-process tests: writes entries into a cache directory so the tests can
// read them from another process, or kill this one in the middle of writing.
//
//     CacheDiskTestWriter <directory> <count> <key prefix> <flush every>
//
// Stores `count` entries, keys "<prefix>-<i>", payloads from `payload(index:)` (the tests compute the same
// bytes). After every `flush every` entries it calls `flush()` and prints "flushed <i>"; at the end it prints
// "done". Exit status 2 on bad arguments, 3 if the cache cannot be opened.
import CacheDisk
import Foundation

/// The payload for entry `index`: 100 B to ~20 KB of bytes that depend on the index.
func payload(index: Int) -> Data {
    let count = 100 + (index &* 7919) % 20_000
    var data = Data(count: count)
    data.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) in
        for offset in 0..<count {
            bytes[offset] = UInt8(truncatingIfNeeded: index &* 31 &+ offset &* 131 &+ (offset >> 8))
        }
    }
    return data
}

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[2]), let flushEvery = Int(arguments[4]), flushEvery > 0
else {
    FileHandle.standardError.write(Data("usage: CacheDiskTestWriter <directory> <count> <prefix> <flush every>\n".utf8))
    exit(2)
}
let cache: DataCache
do {
    cache = try DataCache(path: URL(fileURLWithPath: arguments[1], isDirectory: true))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(3)
}
cache.sizeLimit = Int.max
for index in 0..<count {
    cache.storeData(payload(index: index), for: "\(arguments[3])-\(index)")
    if (index + 1) % flushEvery == 0 {
        cache.flush()
        FileHandle.standardOutput.write(Data("flushed \(index + 1)\n".utf8))
    }
}
cache.flush()
FileHandle.standardOutput.write(Data("done\n".utf8))
