import Foundation

/// `GET /checklist` as a person reads it: a verdict, every rule with its checklist line,
/// level and count, then the violations device by device (when, which rule, which request,
/// why), and how to get the same as JSON or start over.
enum ChecklistPage {
    static func html(_ report: SandboxChecklist, base: String) -> String {
        let escape = SandboxEngine.escape
        let counts = Dictionary(grouping: report.violations, by: \.rule).mapValues(\.count)
        let devices = orderedDevices(report.violations)
        let verdict: String
        if report.violations.isEmpty {
            verdict = "<p class=\"verdict clean\" id=\"verdict\">No violations: every request so far keeps to the lines below.</p>"
        } else {
            let broken = report.brokenRules.count
            verdict =
                "<p class=\"verdict broken\" id=\"verdict\">\(report.violations.count) violation\(report.violations.count == 1 ? "" : "s") of \(broken) rule\(broken == 1 ? "" : "s") on \(devices.count) device\(devices.count == 1 ? "" : "s").</p>"
        }
        let ruleRows = report.rules.map { rule in
            let count = counts[rule.id, default: 0]
            return """
                <tr class="\(count > 0 ? "broken" : "kept")" id="rule-\(escape(rule.id))"><td><code>\(escape(rule.id))</code></td>\
                <td><span class="badge \(rule.level.rawValue)">\(rule.level.rawValue)</span></td><td>\(escape(rule.line))</td>\
                <td class="count" data-label="violations">\(count)</td></tr>
                """
        }
        let sections = devices.map { device in
            let rows = report.violations.filter { $0.device == device }.map { violation in
                """
                <tr><td class="when" data-label="when (UTC)">\(when(violation.at))</td><td data-label="rule"><code>\(escape(violation.rule))</code></td>\
                <td data-label="request"><code>\(escape(violation.request))</code></td><td data-label="why">\(escape(violation.detail))</td></tr>
                """
            }
            return """
                <section class="device"><h3>Device <code>\(escape(device))</code>\(readable(device).map { " (\(escape($0)))" } ?? "")</h3>
                <table class="list"><thead><tr><th>when (UTC)</th><th>rule</th><th>request</th><th>why</th></tr></thead><tbody>
                \(rows.joined(separator: "\n"))
                </tbody></table></section>
                """
        }
        let json = escape("curl -H 'Accept: application/json' \(base)/checklist")
        let reset = escape("curl -X DELETE \(base)/checklist")
        return PageStyle.document(
            title: "REST API V2 checklist", kind: .checklist, wide: true,
            content: """
                <h1>Adobe's REST API V2 checklist</h1>
                <p class="lead">What the clients of this sandbox did, checked against the lines of Adobe's checklist that a server can see. \
                Times are the sandbox clock's; a device is its <code>AP-Device-Identifier</code>.</p>
                \(verdict)
                <h2>Rules</h2>
                <table class="list" id="rules"><thead><tr><th>rule</th><th>level</th><th>checklist line</th><th>violations</th></tr></thead><tbody>
                \(ruleRows.joined(separator: "\n"))
                </tbody></table>
                <h2>Violations by device</h2>
                \(sections.isEmpty ? "<p>None.</p>" : sections.joined(separator: "\n"))
                <section class="note"><h2>For programs</h2>
                <p>The same report as JSON: <code>\(json)</code><br>Start over (forget every request seen): <code>\(reset)</code></p></section>
                """)
    }

    /// `2026-01-01<br>00:00:03.250`: a violation's moment (UTC) in two short lines.
    private static func when(_ date: Date) -> String {
        let stamp = SandboxChecklist.timestamp(date)
        guard let split = stamp.firstIndex(of: "T") else { return SandboxEngine.escape(stamp) }
        return SandboxEngine.escape(String(stamp[..<split])) + " <br>" + SandboxEngine.escape(String(stamp[stamp.index(after: split)...].dropLast()))
    }

    /// The devices in the order their first violation came.
    private static func orderedDevices(_ violations: [SandboxChecklistViolation]) -> [String] {
        var seen: Set<String> = []
        return violations.map(\.device).filter { seen.insert($0).inserted }
    }

    /// The identifier a Base64 device identifier spells, when it is short printable text.
    private static func readable(_ device: String) -> String? {
        guard let data = Data(base64Encoded: device), data.count <= 64, let text = String(data: data, encoding: .utf8),
            !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F })
        else { return nil }
        return text
    }
}
