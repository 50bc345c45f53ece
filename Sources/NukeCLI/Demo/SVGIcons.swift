/// The demo's vector icons: small SVG documents drawn with basic shapes.
enum SVGIcons {
    /// `(name, document)` pairs.
    static let all: [(name: String, svg: String)] = [
        (
            "star",
            icon(shape("polygon", "points", "50,8 61,38 94,38 67,58 77,90 50,70 23,90 33,58 6,38 39,38", "#f5b700"))
        ),
        (
            "heart",
            icon(
                shape(
                    "path", "d", "M50 86 C10 60 8 30 28 20 C40 14 48 22 50 30 C52 22 60 14 72 20 C92 30 90 60 50 86Z",
                    "#e63946"))
        ),
        ("bolt", icon(shape("polygon", "points", "56,6 20,56 46,56 38,94 80,40 54,40", "#ffb703"))),
        ("leaf", icon(shape("path", "d", "M20 80 C20 30 50 12 88 12 C88 56 66 84 20 80Z", "#2a9d8f"))),
        ("drop", icon(shape("path", "d", "M50 8 C66 34 80 50 80 64 A30 30 0 0 1 20 64 C20 50 34 34 50 8Z", "#219ebc"))),
        (
            "cloud",
            icon(
                #"<circle cx="38" cy="55" r="20" fill="lightblue"/><circle cx="60" cy="45" r="24" fill="lightblue"/>"#
                    + #"<rect x="20" y="55" width="62" height="20" rx="10" fill="lightblue"/>"#)
        ),
    ]

    private static func shape(_ element: String, _ attribute: String, _ value: String, _ fill: String) -> String {
        "<\(element) \(attribute)=\"\(value)\" fill=\"\(fill)\"/>"
    }

    private static func icon(_ body: String) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">"#
            + #"<rect width="100" height="100" rx="18" fill="whitesmoke"/>"# + body + "</svg>"
    }
}
