/// Command-line options: `[--iterations N] [--warmups N] [filter…]`.
struct BenchOptions {
    var iterations = 15
    var warmups = 3
    var filters: [String] = []

    init(arguments: [String]) {
        var arguments = arguments[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--iterations": iterations = arguments.popFirst().flatMap(Int.init) ?? iterations
            case "--warmups": warmups = arguments.popFirst().flatMap(Int.init) ?? warmups
            default: filters.append(argument)
            }
        }
    }

    /// `true` when no filter is given or one of them is part of `name`.
    func matches(_ name: String) -> Bool {
        filters.isEmpty || filters.contains { name.contains($0) }
    }
}
