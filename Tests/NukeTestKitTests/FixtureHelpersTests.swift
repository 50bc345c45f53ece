import Foundation
import Testing

@testable import NukeTestKit

@Suite("Fixture helpers")
struct FixtureHelpersTests {
    @Test func checksumsMatchTheirReferenceValues() {
        // Then CRC-32 and Adler-32 give the published check values
        #expect(StoredDeflate.crc32(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(StoredDeflate.adler32(Data("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func storedStreamsSplitIntoBlocksOf64KB() {
        // Given 150 000 bytes
        let data = FixturePattern.bytes(in: 0..<150_000)

        // When they're wrapped
        let gzip = StoredDeflate.gzip(data)
        let zlib = StoredDeflate.zlib(data)

        // Then three stored blocks (5-byte headers) sit between the header and trailer
        #expect(gzip.count == 10 + 3 * 5 + 150_000 + 8)
        #expect(zlib.count == 2 + 3 * 5 + 150_000 + 4)
        #expect(gzip[10] == 0x00 && gzip[10 + 5 + 65_535] == 0x00 && gzip[10 + 10 + 2 * 65_535] == 0x01)
        #expect(StoredDeflate.gzip(Data()).count == 10 + 5 + 8)
    }

    @Test func patternSlicesAgreeAcrossThePeriod() {
        // Given slices crossing the period boundary
        let period = FixturePattern.period
        let whole = FixturePattern.bytes(in: (period - 100)..<(period + 100))

        // Then they repeat with the period and match where they came from
        #expect(whole.prefix(200) == FixturePattern.bytes(in: -100 + period..<100 + period))
        #expect(FixturePattern.bytes(in: 0..<100) == FixturePattern.bytes(in: period..<(period + 100)))
        #expect(FixturePattern.matches(whole, at: period - 100))
        #expect(FixturePattern.matches(FixturePattern.bytes(in: 0..<3_000_000), at: 0))
        #expect(Set(FixturePattern.bytes(in: 0..<4096)).count > 200)
    }
}
