/// A `<form>` of a sandbox page as a program fills it in: method, action, id, hidden
/// fields, the names of its visible fields, and its submit buttons. Reads only the plain
/// markup the sandbox's own pages write; it is not a general HTML parser.
struct HTMLForm {
    /// A `<button>` with a `name`: submitting through it adds `name=value`.
    struct Button {
        var name: String
        var value: String
        var label: String
    }

    var method: String
    var action: String
    var id: String?
    var hiddenFields: [(String, String)]
    /// Names of the text and password inputs, in order.
    var visibleFields: [String]
    var hasPassword: Bool
    var buttons: [Button]

    /// The first form with a password field (the MVPD login form), or `nil`.
    init?(html: String) {
        guard let login = Self.forms(in: html).first(where: \.hasPassword) else { return nil }
        self = login
    }

    private init(method: String, action: String, id: String?) {
        self.method = method
        self.action = action
        self.id = id
        hiddenFields = []
        visibleFields = []
        hasPassword = false
        buttons = []
    }

    /// Every form of `html`, in order.
    static func forms(in html: String) -> [HTMLForm] {
        var forms: [HTMLForm] = []
        var cursor = html.startIndex
        while let formStart = html[cursor...].range(of: "<form"),
            let formTagEnd = html[formStart.upperBound...].firstIndex(of: ">"),
            let formEnd = html[formTagEnd...].range(of: "</form>")
        {
            let formTag = String(html[formStart.lowerBound...formTagEnd])
            var form = HTMLForm(
                method: (attribute("method", in: formTag) ?? "GET").uppercased(),
                action: attribute("action", in: formTag) ?? "",
                id: attribute("id", in: formTag))
            let body = html[formTagEnd..<formEnd.lowerBound]
            for tag in tags("<input", in: body) {
                let type = (attribute("type", in: tag) ?? "text").lowercased()
                guard let name = attribute("name", in: tag) else { continue }
                switch type {
                case "hidden": form.hiddenFields.append((name, attribute("value", in: tag) ?? ""))
                case "password": form.hasPassword = true; form.visibleFields.append(name)
                default: form.visibleFields.append(name)
                }
            }
            var buttonCursor = body.startIndex
            while let start = body[buttonCursor...].range(of: "<button"),
                let tagEnd = body[start.upperBound...].firstIndex(of: ">"),
                let end = body[tagEnd...].range(of: "</button>")
            {
                let tag = String(body[start.lowerBound...tagEnd])
                if let name = attribute("name", in: tag) {
                    let label = SandboxEngine.unescape(String(body[body.index(after: tagEnd)..<end.lowerBound]))
                    form.buttons.append(Button(name: name, value: attribute("value", in: tag) ?? "", label: label))
                }
                buttonCursor = end.upperBound
            }
            forms.append(form)
            cursor = formEnd.upperBound
        }
        return forms
    }

    /// The opening tags starting with `prefix` in `text`.
    private static func tags(_ prefix: String, in text: Substring) -> [String] {
        var found: [String] = []
        var cursor = text.startIndex
        while let start = text[cursor...].range(of: prefix), let end = text[start.upperBound...].firstIndex(of: ">") {
            found.append(String(text[start.lowerBound...end]))
            cursor = end
        }
        return found
    }

    /// The unescaped value of `name="…"` in a tag.
    static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"")?.upperBound, let end = tag[start...].firstIndex(of: "\"") else {
            return nil
        }
        return SandboxEngine.unescape(String(tag[start..<end]))
    }
}
