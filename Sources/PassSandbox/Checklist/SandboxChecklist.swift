import Foundation

/// How strongly Adobe's REST API V2 Checklist asks for a line: its "Mandatory Requirements"
/// or its "Recommended Practices".
public enum SandboxChecklistLevel: String, Sendable, CaseIterable {
    /// A line of the checklist's mandatory requirements.
    case mandatory
    /// A line of the checklist's recommended practices.
    case recommended
}

/// One rule of PassSandbox's checklist monitor: the line of Adobe's REST API V2 Checklist it
/// checks, and how strongly the checklist asks for it.
public struct SandboxChecklistRule: Sendable, Equatable {
    /// The rule's identifier (`configuration-while-authenticated`), as the JSON answer of
    /// `GET /checklist` and the scenario transcript name it.
    public var id: String
    /// The checklist line the rule checks: its phase, its row and what the row asks.
    public var line: String
    /// Mandatory requirement or recommended practice.
    public var level: SandboxChecklistLevel

    /// Describes a rule.
    public init(id: String, line: String, level: SandboxChecklistLevel) {
        self.id = id
        self.line = line
        self.level = level
    }
}

/// A place where a client broke a checklist line: which rule, on which device, by which
/// request, when, and why.
public struct SandboxChecklistViolation: Sendable, Equatable {
    /// The ``SandboxChecklistRule/id`` of the rule broken.
    public var rule: String
    /// The device: the Base64 identifier of its `AP-Device-Identifier` header, or, for a
    /// request without one, the device its client credentials, access token or code were
    /// last used on (``unknownDevice`` when nothing tells).
    public var device: String
    /// The request that broke the line: method and path (`GET /api/v2/REF30/configuration`).
    public var request: String
    /// When the sandbox answered that request, on the sandbox clock.
    public var at: Date
    /// Why it breaks the line, in a sentence.
    public var detail: String

    /// The ``device`` of a request nothing attributes to a device.
    public static let unknownDevice = "unknown device"

    /// Records a violation.
    public init(rule: String, device: String, request: String, at: Date, detail: String) {
        self.rule = rule
        self.device = device
        self.request = request
        self.at = at
        self.detail = detail
    }
}

/// What the checklist monitor found: every rule it checks, and every violation seen so far,
/// in the order of the requests that broke them. ``PassSandbox/checklist`` makes one;
/// `GET /checklist` serves it as a page, or as JSON to a client that asks for
/// `application/json`.
public struct SandboxChecklist: Sendable, Equatable {
    /// Every rule the monitor checks, in the checklist's order.
    public var rules: [SandboxChecklistRule]
    /// Every violation, oldest first.
    public var violations: [SandboxChecklistViolation]

    /// A report of `rules` and the `violations` found.
    public init(rules: [SandboxChecklistRule], violations: [SandboxChecklistViolation]) {
        self.rules = rules
        self.violations = violations
    }

    /// The violations of `rule` (an id).
    public func violations(of rule: String) -> [SandboxChecklistViolation] {
        violations.filter { $0.rule == rule }
    }

    /// The ids of the rules broken at least once, in the rules' order.
    public var brokenRules: [String] {
        let broken = Set(violations.map(\.rule))
        return rules.map(\.id).filter(broken.contains)
    }

    /// The JSON answer of `GET /checklist`:
    /// `{"rules":[{"id","line","level"}],"violations":[{"rule","device","request","at","detail"}]}`,
    /// `at` in ISO 8601 with milliseconds (UTC).
    public var json: String {
        let rules = self.rules.map { rule in
            SandboxJSON.object(("id", .string(rule.id)), ("line", .string(rule.line)), ("level", .string(rule.level.rawValue)))
        }
        let violations = self.violations.map { violation in
            SandboxJSON.object(
                ("rule", .string(violation.rule)), ("device", .string(violation.device)), ("request", .string(violation.request)),
                ("at", .string(Self.timestamp(violation.at))), ("detail", .string(violation.detail)))
        }
        return String(decoding: SandboxJSON.object(("rules", .array(rules)), ("violations", .array(violations))).bytes, as: UTF8.self)
    }

    /// `2026-01-01T00:00:03.250Z`: a moment as the checklist's answers write it (UTC, milliseconds).
    public static func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "unknown time" }
        let whole = Int64(milliseconds)
        let fraction = ((whole % 1_000) + 1_000) % 1_000
        let second = SandboxEngine.isoTime(Date(timeIntervalSince1970: TimeInterval(whole - fraction) / 1_000))
        let digits = String(fraction)
        return second.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
