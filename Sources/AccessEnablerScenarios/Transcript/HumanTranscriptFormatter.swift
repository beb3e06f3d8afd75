import AccessEnabler
import Foundation

/// Renders transcript lines for a person reading along: calls the app makes, callbacks it
/// receives, statuses, and HTTP traces, one short line each.
public enum HumanTranscriptFormatter {
    /// A readable rendering of `line`.
    public static func render(_ line: TranscriptLine) -> String {
        if case .string(let name) = line["name"], line["step"] != nil {
            return "  ▶ \(name)"
        }
        if case .string(let request) = line["http"] {
            return "      http \(request) → \(line["status"].map(text) ?? "?")"
        }
        guard let callback = line.callback else { return line.json }
        if callback == "status" {
            let id = line["errorId"]?.stringValue ?? "?"
            let level = line["level"]?.stringValue ?? "?"
            let message = line["message"]?.stringValue.map { " — \($0)" } ?? ""
            return "    ⓘ status \(id) [\(level)]\(message)"
        }
        let arguments = line.fields.filter { $0.key != "callback" }.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ")
        return "    ← \(callback)(\(arguments))"
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s.count > 90 ? "\"\(s.prefix(87))…\"" : "\"\(s)\""
        default:
            let json = value.compactJSON
            return json.count > 90 ? String(json.prefix(87)) + "…" : json
        }
    }
}
