import AccessEnabler
import Foundation

/// Renders transcript lines for a person reading along: calls the app makes, callbacks it
/// receives, statuses, and HTTP traces, one line each.
///
/// Values are shown whole. Only a value longer than ``longValueLimit`` characters is
/// shortened, and then at a boundary a reader recognises (a space, a comma between list
/// elements, a `?` or `&` in a URL), with a note of how much was left out — never in the
/// middle of a word. A value with no such boundary is shown whole.
public enum HumanTranscriptFormatter {
    /// Values up to this many characters are always shown whole.
    public static let longValueLimit = 240

    /// A readable rendering of `line`. A line of an app other than the top-level one
    /// (one with an `app` key) is marked with the app's name in brackets: `← [B] setRequestorComplete(…)`.
    public static func render(_ line: TranscriptLine) -> String {
        let app = line["app"]?.stringValue.map { "[\($0)] " } ?? ""
        if case .string(let name) = line["name"], line["step"] != nil {
            return "  ▶ \(app)\(name)"
        }
        if case .string(let request) = line["http"] {
            if case .number(let status) = line["status"] { return "      http \(app)\(request) → \(Int(status))" }
            return "      http \(app)\(request) → no response"
        }
        if case .string(let outcome) = line["logoutPage"], let url = line["url"]?.stringValue {
            let failure = line["detail"]?.stringValue.map { ": \(shortened($0))" } ?? ""
            return "    ☎ \(app)the logout page \(outcome) on a phone: \(shortened(url))\(failure)"
        }
        guard let callback = line.callback else { return line.json }
        if callback == "status" {
            let id = line["errorId"]?.stringValue ?? "?"
            let level = line["level"]?.stringValue ?? "?"
            let message = line["message"]?.stringValue
            var rendered = "    ⓘ \(app)status \(id) [\(level)]"
            if let message { rendered += " — " + shortened(message) }
            // The details matter when the message does not already carry them (APPL's
            // framework error; not REGCODE's code, which its message spells out).
            if let details = line["details"]?.stringValue, !details.isEmpty, message?.contains(details) != true {
                rendered += " (details: \(shortened(details)))"
            }
            return rendered
        }
        let arguments = line.fields.filter { $0.key != "callback" && $0.key != "app" }.map {
            "\($0.key): \(text($0.value))"
        }.joined(separator: ", ")
        return "    ← \(app)\(callback)(\(arguments))"
    }

    /// A sentence for a callback whose meaning is not obvious from its values, or `nil`.
    ///
    /// Today: metadata marked `encrypted: true`, which the SDK hands over exactly as the
    /// MVPD sent it.
    public static func note(for line: TranscriptLine) -> String? {
        if line.callback == "setMetadataStatus", line["encrypted"] == .bool(true) {
            return
                "encrypted: true — the MVPD sent this value encrypted; the SDK passes it on as it came, for the app's server to decrypt."
        }
        return nil
    }

    /// `text` whole when it has at most `limit` characters; otherwise cut after the last
    /// space, comma, `?`, `&` or `;` within the limit, followed by a note of the characters
    /// left out. A text with no such boundary within the limit is returned whole.
    public static func shortened(_ text: String, limit: Int = longValueLimit) -> String {
        guard text.count > limit else { return text }
        let boundaries: Set<Character> = [" ", ",", "?", "&", ";"]
        var cut: String.Index?
        var index = text.startIndex
        var counted = 0
        while index < text.endIndex, counted < limit {
            let next = text.index(after: index)
            if boundaries.contains(text[index]) { cut = next }
            index = next
            counted += 1
        }
        guard let cut else { return text }
        let kept = text[..<cut].trimmingCharacters(in: .whitespaces)
        let left = text[cut...].count
        return "\(kept) … [\(left) more characters not shown]"
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return shortened(JSONValue.quote(s))
        default: return shortened(value.compactJSON)
        }
    }
}
