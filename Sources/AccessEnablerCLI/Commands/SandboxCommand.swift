import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// `accessenabler sandbox [--port N] [--world FILE] [--log-requests] [--checklist-strict]`:
/// serves PassSandbox until interrupted, then says what its checklist monitor found (and,
/// strict, exits with ``strictFailureStatus`` when a client broke a mandatory line).
enum SandboxCommand {
    static let synopsis = CommandSynopsis(
        name: "sandbox", argument: nil,
        summary: """
            Serve PassSandbox on loopback until interrupted (Ctrl-C), then summarise Adobe's checklist as its \
            clients kept it.
            """,
        options: [
            .init(name: "--port", value: "N", summary: "listen on port N (0, the default, picks a free port)"),
            .init(name: "--world", value: "FILE", summary: "serve the world in FILE instead of the built-in one"),
            .init(
                name: "--log-requests", value: nil,
                summary: "print one line per request answered (time, method, path, status, device)"),
            .init(
                name: "--checklist-strict", value: nil,
                summary: """
                    on stopping, exit with status 3 if a client broke a mandatory line of the checklist (for CI)
                    """),
        ])

    /// The exit status of a `--checklist-strict` run that saw a mandatory violation.
    static let strictFailureStatus: Int32 = 3

    /// The help, naming the requestors of `world` (the built-in world, or the one `--world`
    /// names) with their MVPDs.
    static func help(world: SandboxWorld, worldName: String) -> String {
        let requestors = world.serviceProviders.map { provider in
            let name = provider.name == provider.id ? "" : " (\(provider.name))"
            return "  \(provider.id)\(name): \(provider.mvpds.map(\.id).joined(separator: ", "))"
        }
        return """
            Usage: \(synopsis.usageLine)

            Serves PassSandbox — DCR, REST API V2, the MVPD login and logout pages, the second
            screen (/activate, where a person types the code a TV shows), Adobe's TempPass reset
            (DELETE /reset-tempass/v3/reset) and the checklist monitor (/checklist) — on
            http://127.0.0.1:N (N = 0, the default, picks a free port) until interrupted (Ctrl-C).
            On start it prints the address, the Swift line that points an app at it, the second
            screen's address, the world's test users (username / password per MVPD) and its
            identity services, each with a single sign-on token for the test subject "jane"
            (valid 24 h) when the sandbox can sign for it.
            The sandbox watches every client and records where it breaks Adobe's REST API V2
            Checklist: /checklist shows it as a page (JSON with Accept: application/json), and
            Ctrl-C prints a summary before it stops.
            --world FILE loads a world file (its format: "A sandbox world of your own" in the
            SDK's documentation); without it the built-in world is served. A file that is not
            JSON, or not a valid world, is refused with the file's name and the JSON path at fault.
            --log-requests prints a line for each request as it is answered.
            --checklist-strict makes the sandbox, when it stops (Ctrl-C, SIGINT or SIGTERM), exit
            with status 3 if any client broke a mandatory line of the checklist, so a CI job can
            gate on it; notices and recommended lines never fail it (0 otherwise).

            Requestors (service providers) of \(worldName) and their MVPDs:
            \(requestors.joined(separator: "\n"))
            Software statements: \(world.softwareStatements.keys.sorted().joined(separator: ", "))
            """
    }

    static func run(_ arguments: [String]) async -> Int32 {
        // The help names the requestors of the world the command would serve.
        var helpWorld = (SandboxWorld.default, "the built-in world")
        if let index = arguments.firstIndex(of: "--world"), index + 1 < arguments.count,
            case .success(let world) = loadWorld(arguments[index + 1])
        {
            helpWorld = (world, arguments[index + 1])
        }
        let parsed: ParsedArguments
        switch CommandArguments(arguments, synopsis: synopsis, help: help(world: helpWorld.0, worldName: helpWorld.1)) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        var port = 0
        if let text = parsed.values["--port"] {
            guard let value = Int(text), (0...65535).contains(value) else {
                printError("accessenabler sandbox: --port needs a number from 0 to 65535, got \(text).")
                return 2
            }
            port = value
        }
        var world = SandboxWorld.default
        if let path = parsed.values["--world"] {
            switch loadWorld(path) {
            case .success(let loaded): world = loaded
            case .failure(let problem):
                printError("accessenabler sandbox: \(problem.message)")
                return 2
            }
        }
        let sandbox = PassSandbox(world: world, clock: SandboxClock.system)
        if parsed.flags.contains("--log-requests") { sandbox.observeRequests(RequestLogPrinter.print) }
        let server: LoopbackHTTPServer
        let base: URL
        do {
            (server, base) = try sandbox.serveOverLoopback(port: port)
        } catch LoopbackHTTPServerError.portInUse(let host, let port) {
            printError(
                """
                accessenabler sandbox: port \(port) is already in use on \(host): another program (perhaps another \
                sandbox) listens there. Stop it, or choose another port with --port N (--port 0 picks a free one).
                """
            )
            return 1
        } catch {
            printError("accessenabler sandbox: could not listen on 127.0.0.1:\(port): \(error)")
            return 1
        }
        print("PassSandbox is serving at \(base.absoluteString)")
        print(
            "  point an app at it (Swift): AccessEnablerConfiguration(environment: .custom(URL(string: \"\(base.absoluteString)\")!))"
        )
        print("  software statements: \(world.softwareStatements.keys.sorted().joined(separator: ", "))")
        print("  requestors: \(world.serviceProviders.map(\.id).joined(separator: ", "))")
        // Registration requires X-Device-Info (Base64 JSON), so the hint carries one.
        let deviceInfo = Data(
            #"{"model":"PC","version":"1","osName":"Linux","osVersion":"6","connectionType":"LAN"}"#.utf8
        ).base64EncodedString()
        print(
            "  try: curl -s -X POST \(base.absoluteString)/o/client/register -H 'Content-Type: application/json' -H 'X-Device-Info: \(deviceInfo)' -d '{\"software_statement\":\"\(world.softwareStatements.keys.sorted().first ?? "STATEMENT")\"}'"
        )
        print("  checklist (where clients break Adobe's REST API V2 Checklist): \(base.absoluteString)/checklist")
        let strict = parsed.flags.contains("--checklist-strict")
        if strict {
            print("    --checklist-strict: stopping exits with status \(strictFailureStatus) on a mandatory violation")
        }
        print("  second screen: \(sandbox.activationURL.absoluteString)")
        print(
            "    a TV shows a code; type it there in a browser (this computer only: the sandbox listens on 127.0.0.1)")
        print("  authentication sessions (codes) last \(world.authenticationSessionTTL) s")
        print("  test users (username / password):")
        for line in testUserLines(world) { print("    \(line)") }
        print("  identity services (single sign-on; each token below is for subject \(sampleSubject), valid 24 h):")
        for line in identityServiceLines(world, sandbox: sandbox) { print("    \(line)") }
        print("Press Ctrl-C to stop.")
        fflush(nil)
        await waitForInterrupt()
        server.shutdown()
        sandbox.observeRequests(nil)
        let checklist = sandbox.checklist
        for line in checklistSummary(checklist, page: base.absoluteString + "/checklist") { print(line) }
        print("PassSandbox stopped.")
        fflush(nil)
        guard strict, let verdict = strictVerdict(checklist) else { return 0 }
        printError(verdict)
        return strictFailureStatus
    }

    /// Why a `--checklist-strict` run fails, in a line: how many mandatory violations of
    /// which rules; `nil` when there are none.
    static func strictVerdict(_ checklist: SandboxChecklist) -> String? {
        let mandatory = checklist.mandatoryViolations
        guard !mandatory.isEmpty else { return nil }
        let rules = checklist.rules.map(\.id).filter { id in mandatory.contains { $0.rule == id } }
        let count = mandatory.count == 1 ? "1 mandatory violation" : "\(mandatory.count) mandatory violations"
        let named = rules.joined(separator: ", ")
        return "accessenabler sandbox: --checklist-strict: \(count) (\(named)); exit status \(strictFailureStatus)."
    }

    /// The most violations the summary lists one by one.
    static let summaryViolationLimit = 20

    /// What the checklist monitor found, for the end of a run: one line per rule with its
    /// count (`✓` none, `✗` violations, `?` notices), then the violations and the notices (at
    /// most ``summaryViolationLimit`` of each).
    static func checklistSummary(_ checklist: SandboxChecklist, page: String) -> [String] {
        let counts = Dictionary(grouping: checklist.violations + checklist.notices, by: \.rule).mapValues(\.count)
        var lines = ["Adobe's REST API V2 Checklist, as this sandbox saw its clients:"]
        let width = checklist.rules.map(\.id.count).max() ?? 0
        for rule in checklist.rules {
            let count = counts[rule.id, default: 0]
            let mark = count == 0 ? "✓" : (rule.level == .notice ? "?" : "✗")
            let id = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("  \(mark) \(id)  \(count)  (\(rule.level.rawValue))")
        }
        if checklist.violations.isEmpty {
            lines.append("No violations.")
        } else {
            let devices = Set(checklist.violations.map(\.device)).count
            lines.append("\(counted(checklist.violations.count, "violation")) on \(counted(devices, "device")):")
            lines += listed(checklist.violations, page: page)
        }
        if !checklist.notices.isEmpty {
            let notices = counted(checklist.notices.count, "notice")
            lines.append("\(notices) (a server cannot be sure of these; look at each):")
            lines += listed(checklist.notices, page: page)
        }
        return lines
    }

    /// One line per finding, at most ``summaryViolationLimit``, then how many more.
    private static func listed(_ findings: [SandboxChecklistViolation], page: String) -> [String] {
        var lines = findings.prefix(summaryViolationLimit).map { finding in
            """
              \(SandboxChecklist.timestamp(finding.at)) \(finding.rule) · device \(finding.device) · \
            \(finding.request): \(finding.detail)
            """
        }
        if findings.count > summaryViolationLimit {
            lines.append("  … and \(findings.count - summaryViolationLimit) more (the page \(page) showed them all).")
        }
        return lines
    }

    /// `1 violation`, `3 devices`.
    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The world in the file at `path`, or why not (in the words every command uses).
    static func loadWorld(_ path: String) -> Result<SandboxWorld, InputFile.Problem> {
        InputFile.readJSON(path, as: .world).flatMap { data in
            do throws(SandboxWorldError) {
                return .success(try SandboxWorld.load(from: data))
            } catch {
                return .failure(InputFile.invalid(path, .world, of: .world, at: error.path(under: "$"), error.problem))
            }
        }
    }

    /// One line per MVPD integration of each requestor: who can sign in there.
    static func testUserLines(_ world: SandboxWorld) -> [String] {
        world.serviceProviders.flatMap { provider in
            provider.mvpds.map { mvpd in
                let users =
                    mvpd.users.isEmpty
                    ? (mvpd.tempPass ? "no login (temporary access)" : "no users")
                    : mvpd.users.map { "\($0.username) / \($0.password)" }.joined(separator: ", ")
                let inactive = mvpd.integrationActive ? "" : " (integration inactive)"
                return "\(provider.id) · \(mvpd.displayName) (\(mvpd.id))\(inactive): \(users)"
            }
        }
    }

    /// The subject of the sample tokens the command prints.
    static let sampleSubject = "jane"

    /// One line per identity service in force: its issuer, the header its tokens go in, and
    /// a token for ``sampleSubject`` when the sandbox holds the service's private key (a test
    /// token, for curl and conformance runs; an app gets its own from its identity service).
    static func identityServiceLines(_ world: SandboxWorld, sandbox: PassSandbox) -> [String] {
        world.identityServicesInForce.map { service in
            let kind = service.kind == .serviceToken ? "service token" : "platform identity"
            let described = "\(service.issuer) (\(kind), \(service.kind.headerName))"
            guard let token = try? sandbox.issueIdentityToken(subject: sampleSubject, issuer: service.issuer) else {
                return "\(described): public key only, the sandbox verifies its tokens but cannot issue one"
            }
            return "\(described): \(token)"
        }
    }

    /// Suspends until SIGINT or SIGTERM.
    private static func waitForInterrupt() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let box = ResumeOnce(continuation)
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { box.resume() }
                source.resume()
                SignalSources.keep(source)
            }
        }
    }
}

/// Prints the request log, one line per request, as `--log-requests` asks.
enum RequestLogPrinter {
    private static let lock = NSLock()

    /// One request: `2026-01-01T00:00:03.250Z GET /api/v2/REF30/profiles 200 device ZGV2aWNl`.
    static func line(_ entry: SandboxLogEntry) -> String {
        let time = entry.at.map(SandboxChecklist.timestamp) ?? "-"
        let status = entry.status == 0 ? "dropped" : String(entry.status)
        return "\(time) \(entry.method) \(entry.path) \(status)" + (entry.device.map { " device \($0)" } ?? "")
    }

    /// Writes ``line(_:)`` to standard output at once (requests arrive on several threads).
    @Sendable static func print(_ entry: SandboxLogEntry) {
        let data = Data((line(entry) + "\n").utf8)
        lock.withLock { FileHandle.standardOutput.write(data) }
    }
}

/// Keeps signal sources alive for the life of the process.
private enum SignalSources {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let lock = NSLock()
    static func keep(_ source: DispatchSourceSignal) { lock.withLock { sources.append(source) } }
}

/// Resumes a continuation once, whichever signal comes first.
private final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    func resume() {
        let pending: CheckedContinuation<Void, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume()
    }
}
