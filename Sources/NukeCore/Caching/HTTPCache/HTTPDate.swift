import Foundation

/// HTTP dates (RFC 9110 §5.6.7): parsed from the three formats a recipient must accept, formatted as IMF-fixdate.
/// Locale- and time-zone-free, without `DateFormatter`.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday.

    /// Seconds since 1970 of `text` in IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime (`Sun Nov  6 08:49:37 1994`) form; `nil` if it is none of them.
    static func parse(_ text: some StringProtocol) -> Double? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0) }
        // Fields are separated by one space (RFC 9110 §5.6.7): `Sun, 06  Nov 1994 …` is invalid. Only asctime pads a
        // one-digit day with a second space (`Nov  6`).
        let separators = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == " " }).count - 1
        let isPaddedAsctime = words.count == 5 && words[2].count == 1 && separators == 5
        guard separators == words.count - 1 || isPaddedAsctime, !text.contains("\t") else { return nil }
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        if words.count == 6, words[0].hasSuffix(","), words[5].uppercased() == "GMT" {  // IMF-fixdate
            day = Int(words[1])
            month = monthIndex(words[2])
            year = Int(words[3])
            time = parseTime(words[4])
        } else if words.count == 4, words[0].hasSuffix(","), words[3].uppercased() == "GMT" {  // RFC 850
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, let twoDigits = Int(parts[2]), parts[2].count == 2 else { return nil }
            day = Int(parts[0])
            month = monthIndex(String(parts[1]))
            // RFC 9110: a two-digit year that would be more than 50 years in the future is the most recent past
            // year with those digits.
            let current = currentYear
            let candidate = current / 100 * 100 + twoDigits
            year = candidate > current + 50 ? candidate - 100 : candidate
            time = parseTime(words[2])
        } else if words.count == 5, !words[0].hasSuffix(",") {  // asctime
            month = monthIndex(words[1])
            day = Int(words[2])
            time = parseTime(words[3])
            year = Int(words[4])
        }
        guard let day, let month, let year, let (hour, minute, second) = time, (1...31).contains(day),
            (1...9999).contains(year), day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// `seconds` since 1970 as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func format(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let monthName = months[month - 1].prefix(1).uppercased() + months[month - 1].dropFirst()
        return "\(weekday), \(two(day)) \(monthName) \(year) \(two(secondsOfDay / 3_600)):"
            + "\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60)) GMT"
    }

    private static func monthIndex(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    private static func parseTime(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]),
            let minute = Int(parts[1]), let second = Int(parts[2]), hour < 24, minute < 60, second <= 60
        else { return nil }
        return (hour, minute, min(second, 59))  // A leap second reads as the second before it.
    }

    /// This year (UTC), for two-digit years.
    private static var currentYear: Int {
        civilFromDays(Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))).year
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
