/// The first `<form>` of a page: method, action and hidden fields.
struct HTMLForm {
    var method: String
    var action: String
    var hiddenFields: [(String, String)]

    init?(html: String) {
        guard let formStart = html.range(of: "<form"),
              let formTagEnd = html[formStart.upperBound...].firstIndex(of: ">"),
              let formEnd = html[formTagEnd...].range(of: "</form>")
        else { return nil }
        let formTag = String(html[formStart.lowerBound...formTagEnd])
        method = (Self.attribute("method", in: formTag) ?? "GET").uppercased()
        action = Self.attribute("action", in: formTag) ?? ""
        hiddenFields = []
        var hasPassword = false
        var cursor = formTagEnd
        while let inputStart = html[cursor..<formEnd.lowerBound].range(of: "<input"),
              let inputEnd = html[inputStart.upperBound..<formEnd.lowerBound].firstIndex(of: ">") {
            let tag = String(html[inputStart.lowerBound...inputEnd])
            let type = (Self.attribute("type", in: tag) ?? "text").lowercased()
            if type == "password" { hasPassword = true }
            if type == "hidden", let name = Self.attribute("name", in: tag) {
                hiddenFields.append((name, Self.attribute("value", in: tag) ?? ""))
            }
            cursor = inputEnd
        }
        guard hasPassword else { return nil }
    }

    /// The unescaped value of `name="…"` in a tag.
    static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"")?.upperBound, let end = tag[start...].firstIndex(of: "\"") else { return nil }
        return SandboxEngine.unescape(String(tag[start..<end]))
    }
}
