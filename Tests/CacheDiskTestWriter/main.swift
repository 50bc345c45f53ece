// A child process for CacheDisk's multi-process tests: writes entries into a cache directory so the tests can
// read them from another process, or kill this one in the middle of writing.
//
//     CacheDiskTestWriter <directory> <count> <key prefix> <flush every> [forever]
//
// Stores `count` entries, keys "<prefix>-<i>", payloads from `payload(index:version:)` (the tests compute the
// same bytes). After every `flush every` entries it calls `flush()` and prints "flushed <n>" (n entries stored
// so far); at the end it prints "done". With `forever`, it starts over with the next version of every entry
// instead of stopping, until killed. Exit status 2 on bad arguments, 3 if the cache cannot be opened.
import CacheDisk
import Foundation

/// Version `version` of the payload of entry `index`: 100 B to ~20 KB of bytes that depend on the index, the
/// first 8 holding the version (little-endian).
func payload(index: Int, version: Int) -> Data {
    let count = 100 + (index &* 7919) % 20_000
    var data = Data(count: count)
    data.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) in
        for offset in 0..<count {
            bytes[offset] = UInt8(truncatingIfNeeded: index &* 31 &+ offset &* 131 &+ (offset >> 8))
        }
        bytes.storeBytes(of: UInt64(version).littleEndian, toByteOffset: 0, as: UInt64.self)
    }
    return data
}

let arguments = CommandLine.arguments
guard arguments.count == 5 || (arguments.count == 6 && arguments[5] == "forever"),
    let count = Int(arguments[2]), count > 0, let flushEvery = Int(arguments[4]), flushEvery > 0
else {
    FileHandle.standardError.write(
        Data("usage: CacheDiskTestWriter <directory> <count> <prefix> <flush every> [forever]\n".utf8))
    exit(2)
}
let forever = arguments.count == 6
let cache: DataCache
do {
    cache = try DataCache(path: URL(fileURLWithPath: arguments[1], isDirectory: true))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(3)
}
cache.sizeLimit = Int.max
var stored = 0
repeat {
    for index in 0..<count {
        cache.storeData(payload(index: index, version: stored / count), for: "\(arguments[3])-\(index)")
        stored += 1
        if stored % flushEvery == 0 {
            cache.flush()
            FileHandle.standardOutput.write(Data("flushed \(stored)\n".utf8))
        }
    }
} while forever
cache.flush()
FileHandle.standardOutput.write(Data("done\n".utf8))
