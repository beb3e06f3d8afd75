import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// `accessenabler demo`: the Apple SSO cookbook and a second-screen sign-in, each act
/// against an embedded sandbox of its own on loopback.
enum DemoCommand {
    static let synopsis = CommandSynopsis(
        name: "demo", argument: nil,
        summary:
            "Tell four acts against an embedded sandbox: Adobe's Apple SSO cookbook (iOS), a second-screen sign-in "
            + "(tvOS), single sign-on across two apps, and the TV's provider service with two app processes.",
        options: [
            .init(name: "--json", value: nil, summary: "print the transcript format instead: one JSON object per line"),
            .init(name: "--trace-http", value: nil, summary: "also print every REST/DCR call as it completes"),
            .init(name: "--act", value: "N", summary: "tell only act N (1, 2, 3 or 4)"),
        ])

    static var help: String { helpOpening + helpAct3 + helpAct4 + helpClosing }

    private static let helpAct4 = """
          Act 4, the TV's own provider service (the Video Subscriber Account of Linux): three
          processes — `accessenabler provider-service` and two apps (`accessenabler provider-app`)
          — where the person allows the first app and signs the TV in on a phone once, the second
          app (another requestor) is signed in with no code and no login, and a sign-out at the
          service reaches both apps at once.

        """

    private static let helpAct3 = """
          Act 3, two apps on one Linux TV (two requestors, two software statements) that present
          the same service token: a sign-in in one is the other's at its setRequestor, with no
          code, and a logout in the first is a single logout the other sees at its next launch.

        """

    private static let helpOpening = """
        Usage: \(synopsis.usageLine)

        Tells, in chapters, what an app sees from the SDK, each act against a fresh PassSandbox
        on a free loopback port:
          Act 1, an iPhone app with Apple single sign-on: permission not determined (VSA404), the
          system picker and the silent exchange into an Adobe profile, tokenSource, authorization
          and preauthorization (and its cache), logout with VSA203 and the silent sign-in at the
          next launch, the partner framework's errors (APPL, APPL_ERROR), the system sign-out,
          the picker's fallbacks (N003, N005, N004, VSA503), permission denied (VSA403), a
          regular MVPD login, encrypted metadata, a denied resource (Z100), a regular logout and
          a picker-only provider.
          Act 2, a set-top box with no browser (tvOS): the registration code (REGCODE), the
          sign-in on a second screen, the polling that completes it, authorization, and a
          restart whose setRequestor is one request.

        """

    private static let helpClosing = """
        Each caption says what its statuses mean and what an app does about them. Each act ends
        with what the sandbox's checklist monitor saw: where the SDK broke Adobe's REST API V2
        Checklist, if anywhere. --act N tells act N alone.
        With --json the output is the scenario transcript format (one JSON object per line),
        each act opening with {"act":N,"title":…,"platform":…} and ending with its checklist
        lines and {"checklistViolations":N}. Nothing is left running afterwards.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch CommandArguments(arguments, synopsis: synopsis, help: help) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        let json = parsed.flags.contains("--json")
        let traceHTTP = parsed.flags.contains("--trace-http")
        let narrator = DemoNarrator(traceHTTP: traceHTTP)
        let acts = DemoScript.acts()
        // The scenario acts, then the act of processes (the device's provider service).
        let count = acts.count + 1
        var chosen = Array(0..<count)
        if let text = parsed.values["--act"] {
            guard let number = Int(text), (1...count).contains(number) else {
                printError("accessenabler demo: --act needs an act number from 1 to \(count), got \(text).\n\n\(help)")
                return 2
            }
            chosen = [number - 1]
        }
        if !json {
            print("AccessEnabler for Linux — Adobe's Apple SSO cookbook and a second-screen sign-in, told end to end")
            print("against PassSandbox, an offline Adobe Pass embedded in this command. Requestor REF30.")
            print("▶ the app calls the SDK   ← the SDK calls the app back   ⓘ an advanced status (the status callback)")
            print("• what the person or the device does   ↳ a note on what the callbacks alone do not say")
            print(
                "sendTrackingData is the SDK's analytics event (0 authentication, 1 authorization, 2 provider chosen).")
        }
        var chapter = 0
        for offset in chosen {
            guard offset < acts.count else {
                var act = DemoDeviceAct(json: json, narrator: narrator, chapter: chapter)
                do {
                    chapter = try await act.run(number: offset + 1, of: count)
                } catch {
                    printError("accessenabler demo: act \(offset + 1) (\(DemoDeviceAct.title)) could not run: \(error)")
                    return 1
                }
                continue
            }
            let act = acts[offset]
            let runner = ScenarioRunner(scenario: act.scenario, wire: .loopbackHTTP)
            do {
                try runner.start()
                defer { runner.stop() }
                if json {
                    print(
                        TranscriptLine([
                            ("act", .number(Double(offset + 1))), ("title", .string(act.title)),
                            ("platform", .string(act.scenario.platform.rawValue)),
                        ]).json)
                } else {
                    narrator.opening(act, number: offset + 1, of: count, sandbox: runner.baseURL).forEach { print($0) }
                }
                for (index, step) in act.scenario.steps.enumerated() {
                    if act.captions[index] != nil { chapter += 1 }
                    if !json { narrator.beforeStep(index, of: act, chapterNumber: chapter).forEach { print($0) } }
                    let seen = runner.recorder.lines.count
                    let app = act.scenario.app(ofStep: index)
                    try await runner.step(step, app: app)
                    let produced = Array(runner.recorder.lines.dropFirst(seen))
                    if json {
                        for line in produced where traceHTTP || line["http"] == nil { print(line.json) }
                    } else {
                        let handOver = runner.recorder(ofApp: app)?.lastHandOver
                        narrator.afterStep(
                            step, produced: produced, activation: runner.sandbox.activationURL, handOver: handOver
                        ).forEach { print($0) }
                    }
                }
                let seen = runner.recorder.lines.count
                let result = runner.finish()
                if json {
                    for line in result.lines.dropFirst(seen) { print(line.json) }
                } else {
                    narrator.checklist(result.checklist).forEach { print($0) }
                }
            } catch {
                printError("accessenabler demo: act \(offset + 1) (\(act.title)) could not run: \(error)")
                return 1
            }
        }
        if !json {
            print(
                "\nDone: every callback above came from the SDK talking REST API V2 to the sandbox over loopback HTTP.")
            print("--trace-http shows each REST call; --json prints the transcript format.")
        }
        return 0
    }
}
