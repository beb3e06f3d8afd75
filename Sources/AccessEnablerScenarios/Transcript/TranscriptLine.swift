import AccessEnabler
import Foundation

/// One line of a transcript (the format is in Docs/scenarios/README.md): a step marker, a callback, or an HTTP trace, as an
/// ordered JSON object.
public struct TranscriptLine: Sendable, Equatable, CustomStringConvertible {
    /// The keys and values in the order they are printed.
    public var fields: [(key: String, value: JSONValue)]

    /// Creates a line from ordered fields.
    public init(_ fields: [(key: String, value: JSONValue)]) { self.fields = fields }

    /// The value of `key`, if present.
    public subscript(key: String) -> JSONValue? { fields.first { $0.key == key }?.value }

    /// The callback name, for callback lines.
    public var callback: String? { if case .string(let name) = self["callback"] { name } else { nil } }

    /// `true` when every key of `expectation` is present here with an equal value.
    ///
    /// In a run with one app its lines carry no `app` key, so an expected `"app": "A"` also
    /// matches a line without one.
    public func matches(_ expectation: [String: JSONValue]) -> Bool {
        expectation.allSatisfy { key, value in
            if key == "app", value == .string("A"), self["app"] == nil { return true }
            return self[key].map { $0.looselyEquals(value) } ?? false
        }
    }

    /// The line as compact JSON with keys in order.
    public var json: String {
        "{" + fields.map { "\(JSONValue.string($0.key).compactJSON):\($0.value.compactJSON)" }.joined(separator: ",")
            + "}"
    }

    /// The line as compact JSON.
    public var description: String { json }

    /// Lines are equal when their JSON is.
    public static func == (lhs: TranscriptLine, rhs: TranscriptLine) -> Bool { lhs.json == rhs.json }

    /// A step marker: `{"step":0,"name":"setRequestor"}`.
    public static func step(_ index: Int, name: String) -> TranscriptLine {
        TranscriptLine([("step", .number(Double(index))), ("name", .string(name))])
    }

    /// A `login` step that could not log in: `{"login":"refused","detail":"…"}`.
    public static func loginRefused(_ detail: String) -> TranscriptLine {
        TranscriptLine([("login", .string("refused")), ("detail", .string(detail))])
    }

    /// A logout page the person opened on another device (`openLogoutPages`):
    /// `{"logoutPage":"opened","url":"…"}`, or `{"logoutPage":"failed","url":"…","detail":"…"}`
    /// when it could not be loaded.
    public static func logoutPage(_ url: String, failure: String? = nil) -> TranscriptLine {
        var fields: [(key: String, value: JSONValue)] = [
            ("logoutPage", .string(failure == nil ? "opened" : "failed")), ("url", .string(url)),
        ]
        if let failure { fields.append(("detail", .string(failure))) }
        return TranscriptLine(fields)
    }

    /// The profiles the app read (`profiles` step): `{"profiles":[{"mvpd":"NotBoarded",
    /// "displayName":"…","type":"regular","inForce":true}, …]}`, the one in force first.
    public static func profiles(_ profiles: [Profile]) -> TranscriptLine {
        let list = profiles.map { profile in
            JSONValue.object([
                "mvpd": .string(profile.mvpd), "displayName": .string(profile.displayName),
                "type": .string(profile.type.rawValue), "inForce": .bool(profile.isInForce),
            ])
        }
        return TranscriptLine([("profiles", .array(list))])
    }

    /// The answer of a `selectProfile` step: `{"selectProfile":"NotBoarded","selected":true}`.
    public static func selectProfile(_ mvpd: String, selected: Bool) -> TranscriptLine {
        TranscriptLine([("selectProfile", .string(mvpd)), ("selected", .bool(selected))])
    }

    /// A violation of Adobe's REST API V2 Checklist the sandbox saw:
    /// `{"checklist":"poll-too-frequent","request":"GET /api/v2/…","detail":"…"}`.
    public static func checklist(rule: String, request: String, detail: String) -> TranscriptLine {
        TranscriptLine([("checklist", .string(rule)), ("request", .string(request)), ("detail", .string(detail))])
    }

    /// A notice of the sandbox's checklist monitor (a line it cannot be sure was broken; never
    /// counted as a violation): `{"checklistNotice":"poll-too-slow","request":"GET /api/v2/…","detail":"…"}`.
    public static func checklistNotice(rule: String, request: String, detail: String) -> TranscriptLine {
        TranscriptLine([("checklistNotice", .string(rule)), ("request", .string(request)), ("detail", .string(detail))])
    }

    /// The run's count of checklist violations (mandatory and recommended; notices are not
    /// violations), its last line: `{"checklistViolations":0}`.
    public static func checklistViolations(_ count: Int) -> TranscriptLine {
        TranscriptLine([("checklistViolations", .number(Double(count)))])
    }

    /// An HTTP trace line: `{"http":"POST /api/v2/REF30/sessions","status":200}`.
    public static func http(method: String, path: String, status: Int?) -> TranscriptLine {
        TranscriptLine([
            ("http", .string("\(method) \(path)")), ("status", status.map { .number(Double($0)) } ?? .null),
        ])
    }
}

extension JSONValue {
    /// Equality where numbers compare by value (1 == 1.0) and everything else structurally.
    public func looselyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)): return a == b
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.looselyEquals($1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.looselyEquals($0) } ?? false }
        default: return self == other
        }
    }

    /// Compact JSON text; object keys sorted for stable output.
    public var compactJSON: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n):
            if n.rounded() == n, abs(n) < 1e15 { return String(Int64(n)) }
            return String(n)
        case .string(let s): return JSONValue.quote(s)
        case .array(let a): return "[" + a.map(\.compactJSON).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.keys.sorted().map { "\(JSONValue.quote($0)):\(o[$0]!.compactJSON)" }.joined(separator: ",")
                + "}"
        }
    }

    /// `s` as a JSON string literal (quotes, escapes), as transcript lines write strings.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
