import Foundation

extension Data {
    /// Splits the data into `count` contiguous chunks as even as possible, earlier chunks taking the
    /// remainder (20 bytes in 3 chunks: 7 + 7 + 6). Never returns empty chunks: fewer chunks when the data has
    /// fewer bytes than `count`, and none for empty data. Each chunk is a copy indexed from 0.
    func chunks(count: Int) -> [Data] {
        guard !isEmpty else { return [] }
        let count = Swift.max(1, Swift.min(count, self.count))
        let (size, remainder) = self.count.quotientAndRemainder(dividingBy: count)
        var result: [Data] = []
        var start = startIndex
        for index in 0..<count {
            let end = start + size + (index < remainder ? 1 : 0)
            result.append(Data(self[start..<end]))
            start = end
        }
        return result
    }
}
