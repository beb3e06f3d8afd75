import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// The demo's act 4: the Video Subscriber Account of Linux. Three processes on one "TV" —
/// `accessenabler provider-service` and two apps (`accessenabler provider-app`, each an
/// AccessEnabler whose partner framework is ``DeviceProviderService``) — beside a PassSandbox
/// this process serves, which plays Adobe Pass and the TV provider. App A asks, the person
/// allows it and signs the TV in on a phone once; app B, another requestor in another
/// process, is signed in with no code and no login; the household signs out at the service
/// and both apps hear it at once.
struct DemoDeviceAct {
    static let title = "A Linux TV's provider service: one TV provider sign-in for every app (three processes)"

    /// The act's transcript in JSON instead of the narration.
    let json: Bool
    let narrator: DemoNarrator
    /// The chapter numbers go on from the acts before.
    var chapter: Int
    /// The steps told so far.
    private var steps = 0

    init(json: Bool, narrator: DemoNarrator, chapter: Int) {
        self.json = json
        self.narrator = narrator
        self.chapter = chapter
    }

    /// The two apps, and the service's socket they share.
    private struct Apps {
        let news: DemoChild
        let sports: DemoChild
        let socket: String
    }

    /// Runs the act as act `number` of `count`; returns the last chapter number.
    mutating func run(number: Int, of count: Int) async throws -> Int {
        let sandbox = PassSandbox(clock: SandboxClock.system)
        let (server, base) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-demo-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let socket = root + "/run/provider.sock"
        let prompt = "echo granted"
        let service = try DemoChild(
            "the provider service",
            arguments: [
                "provider-service", "--identity-provider", base.absoluteString, "--socket", socket, "--state-dir",
                root + "/state",
                "--prompt-command", prompt,
            ])
        defer { service.stop(terminate: true) }
        _ = try service.lines(from: 0, until: { $0.contains("listening at") })

        func app(_ label: String, _ name: String, _ requestor: String, _ statement: String) throws -> DemoChild {
            try DemoChild(
                "app \(label)",
                arguments: [
                    "provider-app", "--sandbox", base.absoluteString, "--socket", socket, "--requestor", requestor,
                    "--name", name,
                    "--statement", statement, "--storage", root + "/app-\(label)", "--label", label, "--events",
                ])
        }
        let apps = Apps(
            news: try app("A", "News", "REF30", "STATEMENT"), sports: try app("B", "Sports", "REF31", "STATEMENT2"),
            socket: socket)
        defer {
            apps.news.stop()
            apps.sports.stop()
        }
        for child in [apps.news, apps.sports] {
            _ = try child.lines(from: 0, until: { $0.contains(#""event":"subscribed""#) })
        }

        if json {
            print(
                TranscriptLine([
                    ("act", .number(Double(number))), ("title", .string(Self.title)), ("platform", .string("tvOS")),
                ]).json)
        } else {
            print("")
            print("━━ Act \(number) of \(count): \(Self.title)")
            print("   a fresh PassSandbox at \(base.absoluteString); the provider service at \(socket)")
        }
        try await tell(apps, base: base)
        if json {
            print(TranscriptLine.checklistViolations(sandbox.checklist.violations.count).json)
        } else {
            narrator.checklist(sandbox.checklist).forEach { print($0) }
        }
        return chapter
    }

    private mutating func tell(_ apps: Apps, base: URL) async throws {
        caption(
            """
            A Linux TV has no system-wide TV provider account, so the device maker runs one: accessenabler \
            provider-service, the partner framework of every app on the TV, on a Unix socket only this user's \
            processes can open. It keeps the household's sign-in and each app's permission; when an app may \
            prompt, it asks the person through the TV's own prompt (here a command that answers Allow). Two \
            apps start, each in its own process: A, News (requestor REF30), and B, Sports (requestor REF31, \
            another software statement).
            """)
        caption(
            """
            News launches. Nobody has answered for it yet, so setRequestor reports VSA404 (permission not \
            determined): the app shows its Sign in button.
            """)
        try call(apps.news, "setRequestor", shown: "setRequestor(\"REF30\")")

        caption(
            """
            The person taps Sign in. The TV asks whether News may use the TV provider (they allow it); nobody has \
            signed the TV in, so the service opens the household's sign-in and shows a code. On a phone the \
            person types it, chooses their provider and signs in: once, for the whole TV. The SDK then \
            exchanges the sign-in for an Adobe profile, silently.
            """)
        let started = apps.news.lineCount
        apps.news.send("getAuthentication")
        step("A", "getAuthentication()")
        person("the TV asks: \"Allow News to use your TV provider?\" — the person chooses Allow")
        let opened = try apps.news.lines(from: started, until: { $0.contains(#""event":"signInStarted""#) })
        show(opened)
        let event = opened.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let code = (event?["code"] as? String) ?? ""
        person("the TV shows: On your phone, open \(base.absoluteString)/tv-provider and enter \(code)")
        person("on the phone: the person types \(code), chooses Apple Boarded TV and signs in as alice / alice123")
        _ = try await SimulatedUserAgent(httpBase: base).signInHousehold(
            code: code, choice: .provider("AppleBoarded", username: "alice", password: "alice123"))
        show(try finish(apps.news, "getAuthentication", from: started + opened.count))

        caption(
            """
            Sports, another app in another process, launches. Its permission is not determined either \
            (VSA404). When its Sign in is tapped the TV asks once more (allowed), and the TV is signed in \
            already: no picker, no code, no login. tokenSource says the profile came through the device's \
            sign-in ("Apple", the partner single sign-on).
            """)
        try call(apps.sports, "setRequestor", shown: "setRequestor(\"REF31\")")
        try call(
            apps.sports, "getAuthentication", shown: "getAuthentication()",
            then: "the TV asks: \"Allow Sports to use your TV provider?\" — the person chooses Allow")
        try call(apps.sports, "getMetadata tokenSource", shown: "getMetadata(userMeta, \"tokenSource\")")

        caption(
            """
            The household signs out in the TV's settings ("Settings → TV Provider", here `accessenabler \
            provider-service signout`). Both apps hear it at once (they subscribe to the service's events), and \
            their next checkAuthentication reports it: N000, not authenticated.
            """)
        person("accessenabler provider-service signout")
        let newsSeen = apps.news.lineCount
        let sportsSeen = apps.sports.lineCount
        guard
            case .success = await ProviderServiceSocket.exchange(
                path: apps.socket, line: #"{"v":1,"id":1,"op":"signOut"}"#, connectTimeout: 5, answerTimeout: 30)
        else { throw DemoChild.Failure(description: "the service did not sign the household out") }
        show(try apps.news.lines(from: newsSeen, until: { $0.contains(#""event":"signedOut""#) }))
        show(try apps.sports.lines(from: sportsSeen, until: { $0.contains(#""event":"signedOut""#) }))
        try call(apps.news, "checkAuthentication", shown: "checkAuthentication()")
        try call(apps.sports, "checkAuthentication", shown: "checkAuthentication()")
    }

    // MARK: Telling

    private mutating func caption(_ text: String) {
        chapter += 1
        guard !json else { return }
        print("")
        DemoNarrator.wrap(text, width: narrator.width, first: "\(chapter). ").forEach { print($0) }
    }

    private func person(_ text: String) {
        guard !json else { return }
        DemoNarrator.wrap(text, width: narrator.width, first: "  • ").forEach { print($0) }
    }

    /// The app's call: `▶ [A] setRequestor("REF30")`, or in JSON the transcript's step marker.
    private mutating func step(_ app: String, _ call: String) {
        let name = String(call.prefix { $0 != "(" })
        if json {
            print(
                TranscriptLine([("step", .number(Double(steps))), ("name", .string(name)), ("app", .string(app))]).json)
        } else {
            print("  ▶ [\(app)] \(call)")
        }
        steps += 1
    }

    /// Makes `call` in `app` and shows what came of it; `then` is what the person does meanwhile.
    private mutating func call(_ app: DemoChild, _ call: String, shown: String, then: String? = nil) throws {
        let start = app.lineCount
        app.send(call)
        step(app.name.replacingOccurrences(of: "app ", with: ""), shown)
        if let then { person(then) }
        show(try finish(app, call, from: start))
    }

    /// The lines from `start` up to the `done` marker of `call`.
    private func finish(_ app: DemoChild, _ call: String, from start: Int) throws -> [String] {
        let marker = #"{"done":"\#(call.split(separator: " ").first ?? "")"}"#
        return try app.lines(from: start, until: { $0 == marker })
    }

    /// Prints the callbacks and events among `lines` (not the markers).
    private func show(_ lines: [String]) {
        for text in lines where !text.hasPrefix(#"{"done":"#) {
            guard let line = Self.transcriptLine(text) else { continue }
            if json {
                print(line.json)
            } else if let event = line["event"]?.stringValue {
                let app = line["app"]?.stringValue.map { "[\($0)] " } ?? ""
                var detail =
                    line["code"]?.stringValue.map { " (code \($0))" } ?? line["provider"]?.stringValue.map {
                        " (\($0))"
                    } ?? ""
                if let name = line["name"]?.stringValue, let access = line["accessStatus"]?.stringValue {
                    detail = " (\(name): \(access))"
                }
                print("    ⚑ \(app)provider service event: \(event)\(detail)")
            } else {
                print(HumanTranscriptFormatter.render(line))
            }
        }
    }

    /// A line a child printed, its keys in the order written.
    static func transcriptLine(_ text: String) -> TranscriptLine? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8)) else {
            return nil
        }
        let position = { (key: String) in text.range(of: "\"\(key)\":")?.lowerBound ?? text.endIndex }
        return TranscriptLine(
            object.sorted { position($0.key) < position($1.key) }.map { (key: $0.key, value: $0.value) })
    }
}
