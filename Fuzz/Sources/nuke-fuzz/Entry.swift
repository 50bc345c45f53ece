#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// libFuzzer's set-up hook: picks the target named by `NUKE_FUZZ_TARGET` (`list` prints the names and exits).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["NUKE_FUZZ_TARGET"] ?? ""
    if name == "list" {
        print(FuzzTarget.all.map(\.name).joined(separator: "\n"))
        exit(0)
    }
    guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("nuke-fuzz: set NUKE_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    FuzzTarget.selected = target
    target.setUp?()
    return 0
}

/// libFuzzer's entry: runs the selected target on one input. A target traps (`precondition`) when the code
/// under test breaks a promise; errors thrown for bad input are the expected outcome, not findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzTarget.selected?.run(data)
    return 0
}
