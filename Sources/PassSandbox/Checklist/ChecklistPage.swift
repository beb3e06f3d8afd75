import Foundation

/// `GET /checklist` as a person reads it: a verdict, every rule with its checklist line,
/// level, what it reads and cannot tell apart, and its count; then the violations and the
/// notices device by device (when, which rule, which request, why); then every line of
/// Adobe's checklist with the rules that judge it or why none can; and how to get the same
/// as JSON or start over.
enum ChecklistPage {
    static func html(_ report: SandboxChecklist, base: String) -> String {
        let json = escape("curl -H 'Accept: application/json' \(base)/checklist")
        let reset = escape("curl -X DELETE \(base)/checklist")
        return PageStyle.document(
            title: "REST API V2 checklist", kind: .checklist, wide: true,
            content: """
                <style>\(styles)</style>
                <h1>Adobe's REST API V2 checklist</h1>
                <p class="lead">What the clients of this sandbox did, checked against the lines of Adobe's \
                checklist that a server can see. A violation breaks a line for sure; a notice looks like a break \
                that a server cannot be sure of (a person, a platform or another device could look the same). \
                Times are the sandbox clock's; a device is its <code>AP-Device-Identifier</code>.</p>
                \(verdict(report))
                <h2>Rules</h2>
                <table class="list" id="rules"><thead><tr><th>rule</th><th>level</th>\
                <th>checklist line, and what the rule cannot tell apart</th><th>reads</th><th>found</th></tr></thead>\
                <tbody>
                \(ruleRows(report).joined(separator: "\n"))
                </tbody></table>
                <h2>Violations by device</h2>
                \(sections(report.violations))
                <h2 id="notices">Notices by device</h2>
                \(sections(report.notices))
                <h2 id="coverage">Adobe's checklist, line by line</h2>
                <p>Every line of the checklist: the rules that judge it, and what of it a server cannot see.</p>
                <table class="list" id="coverage-lines"><thead><tr><th>phase</th><th>line</th><th>level</th>\
                <th>judged by</th><th>what a server cannot see</th></tr></thead><tbody>
                \(coverageRows(report.coverage).joined(separator: "\n"))
                </tbody></table>
                <section class="note"><h2>For programs</h2>
                <p>The same report as JSON: <code>\(json)</code><br>Start over (forget every request seen): \
                <code>\(reset)</code><br>Fail a CI job on a mandatory violation: \
                <code>accessenabler sandbox --checklist-strict</code> exits with status 3 when it stops.</p></section>
                """)
    }

    private static func escape(_ text: String) -> String { SandboxEngine.escape(text) }

    /// What only this page needs beside the sandbox's stylesheet: notices, and a rule's limits
    /// under its line.
    private static let styles = """
        .badge.notice{background:var(--note-back);color:#1b4f9c}\
        .verdict.noticed{background:var(--note-back);color:#1b4f9c}\
        .list .limits{display:block;margin-top:3px;color:var(--muted);font-size:.85rem}\
        .list tr.noticed td.count{color:#1b4f9c;font-weight:700}.list td.unjudged{color:var(--muted)}\
        .list td code.id,.list td code.path{overflow-wrap:normal}
        """

    /// The verdict: violations first; notices beside them, or alone.
    private static func verdict(_ report: SandboxChecklist) -> String {
        let noticeCount = report.notices.count
        let notices =
            noticeCount == 0 ? "" : " \(counted(noticeCount, "notice")) to look at (<a href=\"#notices\">below</a>)."
        if report.violations.isEmpty {
            let tone = noticeCount == 0 ? "clean" : "noticed"
            return """
                <p class="verdict \(tone)" id="verdict">No violations: every request so far keeps to the lines \
                below.\(notices)</p>
                """
        }
        let devices = Set(report.violations.map(\.device)).count
        let mandatory = report.mandatoryViolations.count
        return """
            <p class="verdict broken" id="verdict">\(counted(report.violations.count, "violation")) of \
            \(counted(report.brokenRules.count, "rule")) on \(counted(devices, "device")) \
            (\(mandatory) mandatory).\(notices)</p>
            """
    }

    private static func ruleRows(_ report: SandboxChecklist) -> [String] {
        let counts = Dictionary(grouping: report.violations + report.notices, by: \.rule).mapValues(\.count)
        return report.rules.map { rule in
            let count = counts[rule.id, default: 0]
            let state = count == 0 ? "kept" : (rule.level == .notice ? "noticed" : "broken")
            return """
                <tr class="\(state)" id="rule-\(escape(rule.id))"><td><code class="id">\(escape(rule.id))</code></td>\
                <td><span class="badge \(rule.level.rawValue)">\(rule.level.rawValue)</span></td>\
                <td>\(escape(rule.line))<span class="limits">\(escape(rule.limits))</span></td>\
                <td data-label="reads">\(escape(readable(rule.evidence)))</td>\
                <td class="count" data-label="found">\(count)</td></tr>
                """
        }
    }

    /// Findings grouped by device, in the order each device's first came.
    private static func sections(_ findings: [SandboxChecklistViolation]) -> String {
        var seen: Set<String> = []
        let devices = findings.map(\.device).filter { seen.insert($0).inserted }
        guard !devices.isEmpty else { return "<p>None.</p>" }
        return devices.map { device in
            let rows = findings.filter { $0.device == device }.map { finding in
                """
                <tr><td class="when" data-label="when (UTC)">\(when(finding.at))</td>\
                <td data-label="rule"><code class="id">\(escape(finding.rule))</code></td>\
                <td data-label="request"><code class="path">\(breakable(finding.request))</code></td>\
                <td data-label="why">\(escape(finding.detail))</td></tr>
                """
            }
            let spelled = readable(device).map { " (\(escape($0)))" } ?? ""
            return """
                <section class="device"><h3>Device <code>\(escape(device))</code>\(spelled)</h3>
                <table class="list"><thead><tr><th>when (UTC)</th><th>rule</th><th>request</th><th>why</th></tr>\
                </thead><tbody>
                \(rows.joined(separator: "\n"))
                </tbody></table></section>
                """
        }
        .joined(separator: "\n")
    }

    private static func coverageRows(_ coverage: [SandboxChecklistCoverage]) -> [String] {
        coverage.map { line in
            let links = line.rules.map { "<a href=\"#rule-\(escape($0))\"><code class=\"id\">\(escape($0))</code></a>" }
            let rules =
                links.isEmpty
                ? "<td class=\"unjudged\" data-label=\"judged by\">not judged</td>"
                : "<td data-label=\"judged by\">\(links.joined(separator: "<br>"))</td>"
            return """
                <tr><td data-label="phase">\(escape(line.phase))</td><td>\(escape(line.line))</td>\
                <td><span class="badge \(line.level.rawValue)">\(line.level.rawValue)</span></td>\(rules)\
                <td class="unjudged" data-label="cannot see">\(escape(line.unseen ?? "—"))</td></tr>
                """
        }
    }

    /// `request`, escaped, with a line break allowed after each `/` (a path breaks between
    /// its segments, not inside one).
    private static func breakable(_ request: String) -> String {
        escape(request).replacingOccurrences(of: "/", with: "/<wbr>")
    }

    /// What a rule reads, in a few words.
    private static func readable(_ evidence: SandboxChecklistEvidence) -> String {
        switch evidence {
        case .request: "one request"
        case .device: "one device's requests in order"
        case .code: "the polls of one code"
        case .client: "one client's requests"
        case .launches: "launches that look alike"
        }
    }

    /// `3 notices`, `1 device`.
    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `2026-01-01<br>00:00:03.250`: a finding's moment (UTC) in two short lines.
    private static func when(_ date: Date) -> String {
        let stamp = SandboxChecklist.timestamp(date)
        guard let split = stamp.firstIndex(of: "T") else { return escape(stamp) }
        return escape(String(stamp[..<split])) + " <br>"
            + escape(String(stamp[stamp.index(after: split)...].dropLast()))
    }

    /// The identifier a Base64 device identifier spells, when it is short printable text.
    private static func readable(_ device: String) -> String? {
        guard let data = Data(base64Encoded: device), data.count <= 64, let text = String(data: data, encoding: .utf8),
            !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F })
        else { return nil }
        return text
    }
}
