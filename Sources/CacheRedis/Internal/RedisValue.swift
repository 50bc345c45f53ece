import Foundation
internal import CXXHash

/// The bytes stored in Redis for a value: `"NKR1"`, the XXH3-64 of the key it was stored for, the XXH3-64 of the
/// data, the data's length (little-endian), the data. A value stored for another key (a hash collision of the
/// prefixed keys, or another program writing there), cut short, or changed behind the cache's back fails a check
/// and is a miss.
enum RedisValue {
    static let magic = Data("NKR1".utf8)
    static let headerSize = 4 + 8 + 8 + 8

    static func encode(_ data: Data, key: String) -> Data {
        var output = Data(capacity: headerSize + data.count)
        output.append(magic)
        append(hash(Data(key.utf8)), to: &output)
        append(hash(data), to: &output)
        append(UInt64(data.count), to: &output)
        output.append(data)
        return output
    }

    /// The data of `value` if it was stored for `key` and is intact.
    static func decode(_ value: Data, key: String) -> Data? {
        guard value.count >= headerSize, value.starts(with: magic) else { return nil }
        let base = value.startIndex
        guard read(value, at: base + 4) == hash(Data(key.utf8)),
            read(value, at: base + 20) == UInt64(value.count - headerSize)
        else { return nil }
        let data = value.subdata(in: (base + headerSize)..<value.endIndex)
        return read(value, at: base + 12) == hash(data) ? data : nil
    }

    static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { CXXHash_xxh3_64($0.baseAddress, $0.count) }
    }

    private static func append(_ value: UInt64, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func read(_ data: Data, at index: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(data[index + offset]) << (8 * offset) }
        return value
    }
}

/// Consistent hashing of keys over servers: each server owns 160 points on a 64-bit ring, and a key belongs to the
/// first point at or after its hash. Adding or removing a server moves only the keys of the points it owns.
struct HashRing {
    private let points: [(hash: UInt64, server: Int)]

    init(servers: [String]) {
        var points: [(UInt64, Int)] = []
        for (index, name) in servers.enumerated() {
            for replica in 0..<160 { points.append((RedisValue.hash(Data("\(name)#\(replica)".utf8)), index)) }
        }
        self.points = points.sorted { $0.0 < $1.0 }
    }

    /// The server index of `hash`.
    func server(for hash: UInt64) -> Int {
        guard points.count > 1 else { return points.first?.server ?? 0 }
        var low = 0
        var high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].hash < hash { low = middle + 1 } else { high = middle }
        }
        return points[low == points.count ? 0 : low].server
    }
}
