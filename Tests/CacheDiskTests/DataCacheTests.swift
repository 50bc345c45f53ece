import Foundation
import Testing

@testable import CacheDisk

/// Creating a cache, file names, and recovering a deleted directory (after Nuke's `DataCacheTests`).
@Suite struct DataCacheTests {
    let directory = TemporaryDirectory()
    let cache: DataCache

    init() throws {
        cache = try directory.makeCache()
    }

    // MARK: Init

    @Test func initWithPathCreatesTheDirectory() throws {
        // Given
        let path = directory.path("a/b/c")

        // When
        let cache = try directory.makeCache("a/b/c")

        // Then
        #expect(cache.path == path.standardizedFileURL)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(cache.sizeLimit == 150 * 1024 * 1024)
    }

    @Test func initWithNameUsesXDGCacheHomeThenHome() throws {
        #expect(
            try DataCache.directory(forName: "images", environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"]).path
                == "/x/cache/images")
        #expect(
            try DataCache.directory(forName: "images", environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]).path
                == "/h/.cache/images")
        #expect(try DataCache.directory(forName: "images", environment: ["HOME": "/h"]).path == "/h/.cache/images")
        #expect(throws: DataCache.Error.cacheDirectoryUnknown) {
            try DataCache.directory(forName: "images", environment: [:])
        }
    }

    @Test func initWithNameCreatesTheDirectoryInTheUserCacheDirectory() throws {
        // Given
        let name = "CacheDiskTests-\(UUID().uuidString)"
        defer {
            if let url = try? DataCache.directory(forName: name, environment: ProcessInfo.processInfo.environment) {
                try? FileManager.default.removeItem(at: url)
            }
        }

        // When
        let cache = try DataCache(name: name)
        cache["key"] = blob
        cache.flush()

        // Then
        #expect(cache.path.lastPathComponent == name)
        #expect(FileManager.default.fileExists(atPath: cache.path.path))
        #expect(cache.entryFiles.count == 1)
    }

    @Test(arguments: ["", ".", "..", "a/b", "/"])
    func initWithInvalidNameThrows(_ name: String) {
        #expect(throws: DataCache.Error.invalidName(name)) { try DataCache(name: name) }
    }

    @Test func initWithNonFileURLThrows() throws {
        let url = try #require(URL(string: "https://example.com/cache"))
        #expect(throws: DataCache.Error.notAFileURL(url)) { try DataCache(path: url) }
    }

    @Test func initWhereAFileIsInTheWayThrows() throws {
        // Given
        let path = directory.path("file")
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: path)

        // Then
        #expect(throws: DataCache.Error.notADirectory(path: path.path)) { try DataCache(path: path) }
    }

    // MARK: File names

    @Test func fileNameIsTheSHA256OfTheKey() {
        #expect(
            KeyDigest(key: "http://test.com")?.fileName
                == "8b408a0c7163fdfff06ced3e80d7d2b3acd9db900905c4783c28295b8c996165")
        #expect(KeyDigest(key: "")?.fileName == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func fileNameRoundTrips() throws {
        let digest = try #require(KeyDigest(key: "http://test.com"))
        #expect(KeyDigest(fileName: digest.fileName) == digest)
        #expect(KeyDigest(fileName: "not-a-digest") == nil)
        #expect(KeyDigest(fileName: String(digest.fileName.dropLast())) == nil)
        #expect(KeyDigest(fileName: digest.fileName.uppercased()) == nil)
        #expect(KeyDigest(fileName: digest.fileName + "0") == nil)
    }

    @Test func aNameWithAnyNonHexadecimalDigitIsNotADigest() throws {
        // Given a valid name, and the bytes just outside the ranges of digits and lowercase letters
        let name = Array(try #require(KeyDigest(key: "http://test.com")).fileName.utf8)
        let outside = Array("/:`gG@ \u{0}".utf8) + [0xC3]

        // Then any one of them at any position makes the name no digest, and a custom name, not a default one
        for position in [0, 1, 15, 16, 31, 32, 47, 48, 62, 63] {
            for byte in outside {
                var bytes = name
                bytes[position] = byte
                let fileName = String(decoding: bytes, as: UTF8.self)
                #expect(KeyDigest(fileName: fileName) == nil, "\(fileName)")
                #expect(EntryName(fileName: fileName)?.isDefault != true, "\(fileName)")
            }
        }
        let digest = try #require(KeyDigest(fileName: String(decoding: name, as: UTF8.self)))
        #expect(EntryName(fileName: digest.fileName)?.isDefault == true)
        #expect(EntryName(fileName: digest.fileName)?.digest == digest)
        #expect(EntryName(fileName: "photo.jpg")?.isDefault == false)
        #expect(EntryName(digest: digest).isDefault)
    }

    @Test func pathLikeKeysStayInTheDirectory() {
        // When
        cache["../../escape"] = blob
        cache["/etc/passwd"] = otherBlob
        cache.flush()

        // Then
        #expect(cache.entryFiles.count == 2)
        #expect(cache["../../escape"] == blob)
        #expect(cache["/etc/passwd"] == otherBlob)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("escape").path))
    }

    // MARK: Resilience

    @Test func deletedDirectoryIsRecreated() throws {
        // Given
        cache["1"] = Data("2".utf8)
        cache.flush()

        // When
        try FileManager.default.removeItem(at: cache.path)
        cache["1"] = Data("3".utf8)
        cache.flush()

        // Then
        #expect(cache.payloadOnDisk(for: "1") == Data("3".utf8))
        #expect(cache["1"] == Data("3".utf8))
        #expect(cache.totalCount == 1)
        #expect(cache.lastError == nil)
    }

    @Test func aDirectoryReplacedBehindTheCacheIsReadAtItsPath() throws {
        // Given an entry on disk, and the directory then moved away (with its file) and replaced by another
        // instance's directory holding another entry
        cache["1"] = blob
        cache.flush()
        #expect(cache["1"] == blob)
        let moved = directory.path("moved-away")
        try FileManager.default.moveItem(at: cache.path, to: moved)
        let other = try DataCache(path: cache.path)
        other["2"] = Data("2".utf8)
        other.flush()

        // When the cache reads the other instance's entry
        let read = cache["2"]

        // Then it finds it at the path, and from then on reads only there: the moved file is no longer its entry
        #expect(read == Data("2".utf8))
        #expect(cache["1"] == nil)
        #expect(other["1"] == nil)
    }

    @Test func deletedDirectoryReadsMissAndTotalsReset() throws {
        // Given
        cache["1"] = blob
        cache.flush()

        // When
        try FileManager.default.removeItem(at: cache.path)

        // Then
        #expect(cache["1"] == nil)
        #expect(!cache.containsData(for: "1"))
        #expect(cache.totalCount == 0)
        #expect(cache.totalSize == 0)
    }

    @Test func onlyWritesBringBackADeletedDirectory() throws {
        // Given a read waiting to be recorded, and a deleted directory
        cache["1"] = blob
        cache.flush()
        #expect(cache["1"] == blob)
        try FileManager.default.removeItem(at: cache.path)

        // When the cache does bookkeeping: records the read, counts, sweeps, removes
        cache.flush()
        #expect(cache.totalCount == 0)
        cache.sweep()
        cache["1"] = nil
        cache.removeAll()
        cache.flush()

        // Then the directory stays deleted
        #expect(!FileManager.default.fileExists(atPath: cache.path.path))
        #expect(cache.lastError == nil)
    }
}
