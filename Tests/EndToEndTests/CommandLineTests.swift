import AccessEnabler
import AccessEnablerScenarios
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `accessenabler` as a user runs it: the demo read chapter by chapter, `scenario` exit codes
/// and transcripts, `--version`, the usage, and the messages for misuse and bad files.
@Suite struct CommandLineTests {
    private static let scenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/scenarios")

    private func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let executable = try #require(SandboxExecutable.url)
        return try await ChildProcessGate.shared.withGate {
            let running = try RunningCommand(executable, arguments)
            defer { running.stopForcefully() }
            let status = try await running.waitForExit(timeout: SanitizerTiming.scaled(300))
            return (status, running.output, running.errors)
        }
    }

    private func temporaryFile(_ text: String, suffix: String = ".json") throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)\(suffix)")
        try Data(text.utf8).write(to: file)
        return file
    }

    // MARK: scenario

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aScenarioWhoseExpectationsHoldExitsZeroWithItsTranscript() async throws {
        let file = Self.scenarios.appendingPathComponent("sso-silent-sign-in-at-setRequestor.json")
        let (status, output, _) = try await run(["scenario", file.path])
        #expect(status == 0)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == #"{"step":0,"name":"setRequestor"}"#)
        #expect(lines.contains(#"{"callback":"setRequestorComplete","status":1}"#))
        #expect(!lines.contains { $0.hasPrefix(#"{"http""#) }, "HTTP lines only with --trace-http")
        let traced = try await run(["scenario", file.path, "--trace-http"])
        #expect(traced.status == 0)
        #expect(traced.output.contains(#"{"http":"POST /api/v2/REF30/sessions/sso/Apple","status":200}"#))
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func anUnmetExpectationExitsOne() async throws {
        let file = try temporaryFile(
            #"{"steps": [{"setRequestor": "REF30"}], "expect": [{"callback": "setRequestorComplete", "status": 0}]}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, errors) = try await run(["scenario", file.path])
        #expect(status == 1)
        #expect(output.contains(#"{"callback":"setRequestorComplete","status":1}"#))
        #expect(
            errors
                == #"accessenabler scenario: expectation $.expect[0] not met: {"callback":"setRequestorComplete","status":0}; closest line seen: {"callback":"setRequestorComplete","status":1}"#
                + "\n")
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func everyRunEndsWithASummaryLineAndTheChecklistsCount() async throws {
        let file = try temporaryFile(
            #"{"device": null, "steps": [{"setRequestor": "REF30"}], "expect": [{"checklistViolations": 0}, {"callback": "setRequestorComplete", "status": 1}]}"#
        )
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, errors) = try await run(["scenario", file.path])
        #expect(status == 0)
        #expect(errors == "accessenabler scenario: 2 expectations met\n")
        #expect(output.hasSuffix(#"{"checklistViolations":0}"# + "\n"))
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aBadScenarioFileExitsTwoNamingTheFileAndTheJSONPath() async throws {
        let file = try temporaryFile(#"{"steps": [{"setRequestor": "REF30"}, {"login": {"username": "alice"}}]}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, errors) = try await run(["scenario", file.path])
        #expect(status == 2)
        #expect(output.isEmpty)
        #expect(
            errors
                == "accessenabler scenario: scenario file \(file.path): invalid scenario at $.steps[1].login.password: is required\n"
        )
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aBadAppsKeyExitsTwoNamingItsJSONPath() async throws {
        let file = try temporaryFile(
            #"{"apps": {"B": {"storage": "C"}}, "steps": [{"setRequestor": "REF30", "app": "B"}]}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, errors) = try await run(["scenario", file.path])
        #expect(status == 2)
        #expect(output.isEmpty)
        #expect(
            errors
                == "accessenabler scenario: scenario file \(file.path): invalid scenario at $.apps.B.storage: expected \"own\" or the name of another app (A, B), found \"C\"\n"
        )
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func twoAppsPrintOneTranscriptWithEveryAppsLinesNamed() async throws {
        let file = try temporaryFile(
            #"{"device": null, "apps": {"B": {"softwareStatement": "STATEMENT2"}}, "steps": [{"setRequestor": "REF30"}, {"setRequestor": "REF31", "app": "B"}], "expect": [{"callback": "setRequestorComplete", "status": 1, "app": "A"}, {"callback": "setRequestorComplete", "status": 1, "app": "B"}]}"#
        )
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, _) = try await run(["scenario", file.path])
        #expect(status == 0)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.hasPrefix(#"{"step""#) || $0.contains("setRequestorComplete") } == [
                #"{"step":0,"name":"setRequestor","app":"A"}"#,
                #"{"callback":"setRequestorComplete","status":1,"app":"A"}"#,
                #"{"step":1,"name":"setRequestor","app":"B"}"#,
                #"{"callback":"setRequestorComplete","status":1,"app":"B"}"#,
            ])
        // Every app line names its app, A's too; only the run's checklist lines name none.
        let appLines = lines.filter { !$0.hasPrefix(#"{"checklist"#) }
        #expect(appLines.prefix { !$0.contains(#""app":"B""#) }.allSatisfy { $0.hasSuffix(#","app":"A"}"#) })
        #expect(appLines.drop { !$0.contains(#""app":"B""#) }.allSatisfy { $0.hasSuffix(#","app":"B"}"#) })
    }

    // MARK: bad files, worded the same by every command

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aBadWorldIsWordedTheSameInAWorldFileAndInAScenario() async throws {
        let world = #"""
            { "accessTokenTTL": 86400, "softwareStatements": { "STATEMENT": ["REF30"] },
              "serviceProviders": [ { "id": "REF30", "mvpds": [ { "id": "Cable", "authenticationTTL": "one day" } ] } ] }
            """#
        let worldFile = try temporaryFile(world)
        let scenarioFile = try temporaryFile(#"{"world": \#(world), "steps": [{"setRequestor": "REF30"}]}"#)
        defer {
            try? FileManager.default.removeItem(at: worldFile)
            try? FileManager.default.removeItem(at: scenarioFile)
        }
        let sandbox = try await run(["sandbox", "--port", "0", "--world", worldFile.path])
        #expect(sandbox.status == 2)
        #expect(!sandbox.output.contains("serving at"))
        #expect(
            sandbox.errors
                == "accessenabler sandbox: world file \(worldFile.path): invalid world at $.serviceProviders[0].mvpds[0].authenticationTTL: expected a number\n"
        )
        let scenario = try await run(["scenario", scenarioFile.path])
        #expect(scenario.status == 2)
        #expect(scenario.output.isEmpty)
        #expect(
            scenario.errors
                == "accessenabler scenario: scenario file \(scenarioFile.path): invalid world at $.world.serviceProviders[0].mvpds[0].authenticationTTL: expected a number\n"
        )
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aFileThatIsNotJSONSaysSoWithWhereTheParserStopped() async throws {
        let prose = try temporaryFile("hello, this is not a scenario\n", suffix: ".txt")
        let missingComma = try temporaryFile("{\"steps\": [\n  {\"setRequestor\": \"REF30\"}\n  {\"logout\": {}}\n]}\n")
        let empty = try temporaryFile("\n")
        defer { for file in [prose, missingComma, empty] { try? FileManager.default.removeItem(at: file) } }
        for command in [["scenario"], ["sandbox", "--world"]] {
            let kind = command[0] == "scenario" ? "scenario" : "world"
            let first = try await run(command + [prose.path])
            #expect(first.status == 2, "\(command)")
            #expect(
                first.errors
                    == "accessenabler \(command[0]): \(kind) file \(prose.path): not JSON — the parser stopped at line 1, column 1: expected a value, found 'hello'\n"
            )
            let second = try await run(command + [missingComma.path])
            #expect(second.status == 2, "\(command)")
            #expect(
                second.errors
                    == "accessenabler \(command[0]): \(kind) file \(missingComma.path): not JSON — the parser stopped at line 3, column 3: expected ',' or ']' after an element, found '{'\n"
            )
            let third = try await run(command + [empty.path])
            #expect(third.status == 2, "\(command)")
            #expect(
                third.errors
                    == "accessenabler \(command[0]): \(kind) file \(empty.path): not JSON — the file is empty\n")
            let missing = try await run(command + ["/nonexistent/file.json"])
            #expect(missing.status == 2, "\(command)")
            #expect(
                missing.errors
                    == "accessenabler \(command[0]): \(kind) file /nonexistent/file.json: cannot be read: there is no such file\n"
            )
        }
    }

    // MARK: usage and version

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func versionPrintsTheSDKVersion() async throws {
        let (status, output, errors) = try await run(["--version"])
        #expect(status == 0)
        #expect(errors.isEmpty)
        #expect(output == "accessenabler (AccessEnabler for Linux), SDK version \(AccessEnabler.getVersion())\n")
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theUsageListsEveryCommandWithEveryOption() async throws {
        let help = try await run(["--help"])
        #expect(help.status == 0)
        let bare = try await run([])
        #expect(bare.status == 2)
        #expect(bare.output.isEmpty)
        #expect(bare.errors.contains(help.output), "no arguments: the same usage, on standard error")
        let expected = [
            "accessenabler demo [--json] [--trace-http] [--act N]",
            "accessenabler scenario FILE [--trace-http] [--in-process]",
            "accessenabler sandbox [--port N] [--world FILE] [--log-requests]",
            "accessenabler bench [--json] [--quick]",
            "accessenabler --version", "accessenabler --help",
        ]
        for line in expected { #expect(help.output.contains(line), "\(line)") }
        // Each command's own usage line — what it actually accepts — is in the top-level usage,
        // and every option there has a line that says what it does.
        for command in ["demo", "scenario", "sandbox", "bench"] {
            let own = try await run([command, "--help"])
            #expect(own.status == 0)
            let usageLine = try #require(own.output.split(separator: "\n").first.map(String.init))
            #expect(usageLine.hasPrefix("Usage: accessenabler \(command)"))
            #expect(help.output.contains(usageLine.dropFirst("Usage: ".count)), "\(command)")
            let options = usageLine.split(separator: "[").dropFirst().map { $0.prefix { $0 != "]" } }
            for option in options {
                #expect(help.output.contains("      \(option)  "), "\(command): \(option) is explained")
            }
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theUsageNamesEveryActOfTheDemo() async throws {
        let help = try await run(["--help"])
        let lines = help.output.split(separator: "\n").map(String.init)
        let entry = try #require(lines.firstIndex { $0.hasPrefix("  accessenabler demo") })
        let summary = lines[entry + 1]
        let acts = try await run(["demo", "--help"]).output.split(separator: "\n").filter {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("Act ")
        }
        #expect(acts.count == 4, "the demo's own help tells four acts")
        // Each act, by what it shows: the Apple SSO cookbook, the second screen, single sign-on
        // across apps, the TV's provider service.
        let shown = [
            "Apple SSO cookbook", "second-screen sign-in", "single sign-on across two apps", "TV's provider service",
        ]
        for act in shown {
            #expect(summary.contains(act), "the top-level usage's demo line names \(act): \(summary)")
        }
        #expect(summary.contains("four acts"))
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func misuseIsRefusedWithUsage() async throws {
        for arguments in [
            [], ["frobnicate"], ["--frobnicate"], ["scenario"], ["demo", "--bogus"], ["sandbox", "--port", "seventy"],
            ["sandbox", "--world"], ["bench", "extra"],
            ["demo", "--act", "5"], ["demo", "--act", "one"],
            ["bench", "--soak", "none"], ["bench", "--soak", "-1"],
        ] {
            let (status, output, errors) = try await run(arguments)
            #expect(status == 2, "\(arguments)")
            #expect(output.isEmpty, "\(arguments)")
            #expect(errors.contains("Usage:") || errors.contains("--port needs a number"), "\(arguments)")
            if arguments.first == "demo", arguments.count == 3 {
                #expect(
                    errors.hasPrefix("accessenabler demo: --act needs an act number from 1 to 4, got \(arguments[2])."))
            }
        }
        for command in ["demo", "scenario", "sandbox", "bench"] {
            let (status, output, _) = try await run([command, "--help"])
            #expect(status == 0)
            #expect(output.hasPrefix("Usage: accessenabler \(command)"))
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theBenchRunsOneMeasurementOrOneDriverFlowAndRefusesBadNumbers() async throws {
        let measured = try await run(["bench", "--quick", "--only", "roundTrips", "--json"])
        #expect(measured.status == 0, "\(measured.errors)")
        let report = try JSONDecoder().decode([String: JSONValue].self, from: Data(measured.output.utf8))
        guard case .array(let sections)? = report["sections"] else {
            Issue.record("no sections in \(measured.output)")
            return
        }
        #expect(sections.compactMap { $0["key"]?.stringValue } == ["roundTrips"])
        #expect(measured.errors.isEmpty, "--json keeps the progress lines off standard error too")

        let table = try await run(["bench", "--quick", "--only", "waiting", "--devices", "3", "--repeat", "1"])
        #expect(table.status == 0, "\(table.errors)")
        #expect(table.output.hasPrefix("AccessEnabler benchmark"))
        #expect(table.output.contains("CPU while one request waits"))

        let driven = try await run(["bench", "--driver", "checkAuthentication", "--count", "2"])
        #expect(driven.status == 0, "\(driven.errors)")
        #expect(driven.errors.contains("checkAuthentication: 2 of 2 as expected"))

        let refusals: [([String], String)] = [
            (["--devices", "0"], "--devices needs a whole number of devices, 1 or more; '0' is not one."),
            (["--repeat", "x"], "--repeat needs a whole number of runs, 1 or more; 'x' is not one."),
            (["--only", "nope"], "unknown measurement 'nope'; expected one of roundTrips, "),
            (["--driver", "nope"], "unknown driver flow 'nope'; expected one of checkAuthentication, "),
            (["--driver", "signIn", "--count", "-1"], "--count needs a whole number of rounds, 0 or more; '-1'"),
        ]
        for (arguments, sentence) in refusals {
            let refused = try await run(["bench"] + arguments)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.output.isEmpty, "\(arguments)")
            #expect(refused.errors.hasPrefix("accessenabler bench: " + sentence), "\(arguments): \(refused.errors)")
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aSoakRunsForTheMinutesGivenAndSumsUpResidentMemory() async throws {
        let (status, output, errors) = try await run(["bench", "--soak", "0.02"])
        #expect(status == 0, "\(errors)")
        #expect(output.hasPrefix("soak: "))
        #expect(output.contains("rounds as expected"))
        #expect(output.contains("resident memory:"))
        #expect(errors.contains("soak:     0 s  resident"), "the first reading, at the start")
    }

    // MARK: demo

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theDemoTellsEachChapterAndExitsZero() async throws {
        let (status, output, errors) = try await run(["demo"])
        #expect(status == 0)
        #expect(errors.isEmpty)
        let chapters = DemoChapter.parse(output)
        #expect(chapters.count >= 12)

        func chapter(showing status: String) -> DemoChapter? { chapters.first { $0.statuses.contains(status) } }
        // The cookbook: the picker, a boarded provider, the silent exchange.
        let picker = try #require(
            chapters.first {
                $0.body.contains("presentTVProviderDialog") && $0.body.contains("setAuthenticationStatus(status: 1")
            })
        #expect(picker.statuses.isEmpty)
        #expect(output.contains("metadata: \"Apple\""))
        // Every status the cookbook names, each in its own chapter.
        for status in [
            "VSA404", "APPL", "APPL_ERROR", "VSA203", "N000", "N003", "N004", "N005", "VSA503", "VSA403", "Z100",
            "REGCODE",
        ] {
            #expect(chapter(showing: status) != nil, "a chapter shows \(status)")
        }
        #expect(output.contains("ⓘ status APPL [error]") && output.contains("(details: serviceTemporarilyUnavailable"))
        #expect(
            try #require(chapter(showing: "APPL")).body.contains("▶ setRequestor(\"REF30\")\n    ⓘ status APPL [error]")
        )
        #expect(
            try #require(chapter(showing: "APPL_ERROR")).body.contains(
                "▶ checkAuthentication()\n    ⓘ status APPL_ERROR [error]"))
        // No unexplained status: each one that appears is named in its chapter's caption.
        for chapter in chapters {
            for status in chapter.statuses {
                #expect(
                    chapter.names(status),
                    "chapter \(chapter.number) shows \(status) but its caption does not explain it")
            }
        }
        // Answers from a cache say so.
        let preauthorization = try #require(chapters.first { $0.body.contains("checkPreauthorizedResources") })
        #expect(
            preauthorization.body.components(
                separatedBy: "↳ no REST call: answered from the SDK's preauthorization cache."
            ).count == 2,
            "the repeated preauthorization, not the first, is answered from the cache")
        #expect(
            output.contains(
                "▶ checkAuthentication()\n    ← sendTrackingData(event: 0, data: [\"true\",\"AppleBoarded\""))
        #expect(
            output.contains(
                "↳ no REST call: checkAuthentication only looks at what the SDK has stored; it never asks the server."))
        // Encrypted metadata is explained.
        #expect(output.contains("encrypted: true, metadata: \"WyIxMDAwMSJd\""))
        #expect(
            output.contains(
                "↳ encrypted: true — the MVPD sent this value encrypted; the SDK passes it on as it came, for the app's server to decrypt."
            ))
        // The set-top box: the code as the TV shows it, the polling, the sign-in completing.
        let tv = try #require(chapter(showing: "REGCODE"))
        let code = try #require(tv.body.firstMatch(of: /status REGCODE \[info\] — .* enter the code ([A-Z0-9]+)\./)?.1)
        let port = try #require(
            output.firstMatch(of: /Act 2 of \d+: .*\n   a fresh PassSandbox at http:\/\/127\.0\.0\.1:(\d+)/)?.1)
        #expect(
            tv.body.contains("↳ the TV shows: On your phone, open http://127.0.0.1:\(port)/activate and enter \(code)"))
        #expect(
            tv.body.contains(
                "↳ the SDK asked /api/v2/REF30/profiles/code/\(code) once (every 5 s on the scenario clock): no profile yet"
            ))
        #expect(!tv.body.contains("navigateToUrl"))
        let signIn = try #require(chapters.first { $0.number == tv.number + 1 })
        #expect(
            signIn.body.contains(
                "← setAuthenticationStatus(status: 1, errorCode: \"\")\n      ↳ the SDK asked /api/v2/REF30/profiles/code/\(code) once"
            ))
        #expect(signIn.body.contains("the profile is there, the sign-in is complete."))
        #expect(signIn.body.contains("← setToken(token: \"<media token"))
        // Values are whole: no value cut off mid-word.
        #expect(!output.contains("…\""))
        #expect(!output.contains("…)"))
        #expect(!output.contains("…]"))
        #expect(output.contains("redirect_url=adobepass%3A%2F%2Fios.app\")"), "the logout URL is shown whole")
        #expect(output.contains("Done:"))
        // Nothing is left listening on the demo's ports.
        let ports = output.matches(of: /a fresh PassSandbox at http:\/\/127\.0\.0\.1:(\d+)/).compactMap { Int($0.1) }
        #expect(ports.count == Self.actCount(in: output))
        #expect(ports.count >= 2)
        for port in ports { #expect(Self.canBind(port: port), "port \(port) is free again") }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theDemoPrintsTheTranscriptFormatWithJSONAndRESTCallsWithTraceHTTP() async throws {
        let json = try await run(["demo", "--json"])
        #expect(json.status == 0)
        let lines = json.output.split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(!lines.isEmpty && objects.count == lines.count, "every line is a JSON object")
        let acts = objects.compactMap { $0["act"] as? Int }
        #expect(acts.count >= 2 && acts == Array(1...acts.count))
        #expect(objects.first?["platform"] as? String == "iOS")
        #expect(objects.contains { $0["platform"] as? String == "tvOS" })
        #expect(objects.contains { $0["errorId"] as? String == "REGCODE" })
        #expect(!objects.contains { $0["http"] != nil }, "REST calls only with --trace-http")
        // Each act ends with what the sandbox's checklist monitor saw: nothing.
        #expect(objects.filter { $0["checklistViolations"] != nil }.count == acts.count)
        let violations = objects.compactMap { $0["checklist"] as? String }
        #expect(violations.isEmpty, "the demo breaks Adobe's REST API V2 Checklist: \(violations)")
        let traced = try await run(["demo", "--json", "--trace-http"])
        #expect(traced.status == 0)
        #expect(traced.output.contains(#"{"http":"POST /api/v2/REF30/sessions/sso/Apple","status":200}"#))
        let human = try await run(["demo", "--trace-http"])
        #expect(human.status == 0)
        #expect(human.output.contains("      http POST /api/v2/REF30/sessions/sso/Apple → 200"))
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theDemoTellsOneActWhenAskedAndEndsItWithTheChecklist() async throws {
        let (status, output, errors) = try await run(["demo", "--act", "2"])
        #expect(status == 0)
        #expect(errors.isEmpty)
        #expect(output.contains("━━ Act 2 of 4: "))
        #expect(!output.contains("━━ Act 1 of 4") && !output.contains("━━ Act 3 of 4"))
        #expect(output.contains("Adobe's REST API V2 Checklist: the sandbox saw"))
        let json = try await run(["demo", "--act", "2", "--json"])
        let objects = json.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.compactMap { $0["act"] as? Int } == [2])
        #expect(objects.last?["checklistViolations"] is Int, "the act ends with its checklist count")
    }

    /// The number of acts the demo announces (`Act 1 of N`), or 0.
    private static func actCount(in output: String) -> Int {
        output.firstMatch(of: /Act 1 of (\d+):/).flatMap { Int($0.1) } ?? 0
    }

    @Test(
        .enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theDemoTellsTwoAppsSharingASignInThroughAServiceTokenThenASingleLogout() async throws {
        let (status, output, errors) = try await run(["demo"])
        #expect(status == 0)
        #expect(errors.isEmpty)
        #expect(Self.actCount(in: output) == 4)
        #expect(output.contains("Act 3 of 4: Two apps on one Linux TV"))
        // Act 3's three chapters, before act 4's five.
        let chapters = Array(DemoChapter.parse(output).dropLast(5).suffix(3))
        try #require(chapters.count == 3)
        #expect(chapters[0].caption.hasPrefix("Two apps on the same TV"))
        // App A signs in on the phone with the code.
        #expect(chapters[0].body.contains("ⓘ [A] status REGCODE [info]"))
        #expect(chapters[0].body.contains("← [A] setAuthenticationStatus(status: 1, errorCode: \"\")"))
        // App B is signed in at its setRequestor: no code, no provider list.
        #expect(chapters[1].body.contains("▶ [B] setRequestor(\"REF31\")\n    ← [B] setRequestorComplete(status: 1)"))
        #expect(
            chapters[1].body.contains(
                "▶ [B] checkAuthentication()\n    ← [B] sendTrackingData(event: 0, data: [\"true\",\"NotBoarded\""))
        #expect(chapters[1].body.contains("← [B] setToken(token: \"<media token"))
        #expect(!chapters[1].body.contains("displayProviderDialog") && !chapters[1].body.contains("REGCODE"))
        // A's logout is a single logout: B finds it at its next setRequestor.
        #expect(chapters[2].body.contains("▶ [A] logout()"))
        #expect(
            chapters[2].body.contains(
                "← [B] setAuthenticationStatus(status: 0, errorCode: \"User Not Authenticated Error\")"))
        for chapter in chapters {
            for status in chapter.statuses {
                #expect(
                    chapter.names(status),
                    "chapter \(chapter.number) shows \(status) but its caption does not explain it")
            }
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theDemosFourthActIsTheTVsProviderServiceWithTwoAppProcesses() async throws {
        let (status, output, errors) = try await run(["demo", "--act", "4", "--json"])
        #expect(status == 0, "\(errors)")
        let lines = output.split(separator: "\n").map { Data($0.utf8) }
        let objects = lines.compactMap { try? JSONDecoder().decode([String: JSONValue].self, from: $0) }
        #expect(objects.first?["act"] == .number(4))
        /// The app's callbacks as signatures, and its events as `event:NAME`.
        func signatures(_ app: String) -> [String] {
            objects.filter { $0["app"] == .string(app) }.compactMap { object in
                if let event = object["event"]?.stringValue { return "event:\(event)" }
                return CallbackSignature.of(TranscriptLine(object.map { (key: $0.key, value: $0.value) }))
            }
        }
        let picker = "AppleBoarded,PickerOnly,SSODisabled,Degraded|featured:"
        let signedIn = ["sendTrackingData(0,true,AppleBoarded)", "setAuthenticationStatus(1,)"]
        let signedOut = [
            "event:signedOut", "status(N000,info)", "sendTrackingData(0,false,)",
            "setAuthenticationStatus(0,User Not Authenticated Error)",
        ]
        let undetermined = ["status(VSA404,info)", "setRequestorComplete(1)", "event:permissionChanged"]
        // The app's callbacks, and separately the provider service's events it printed: the
        // service tells every subscriber at once, so an event and the callback it causes in
        // the SDK (the dialog dismissed once signedIn arrives) can be printed in either order.
        func split(_ lines: [String]) -> (callbacks: [String], events: [String]) {
            (lines.filter { !$0.hasPrefix("event:") }, lines.filter { $0.hasPrefix("event:") })
        }
        // A asks, the person allows it and signs the TV in on a phone once.
        let expectedA = split(
            undetermined + [
                "presentTVProviderDialog(\(picker))", "event:signInStarted", "event:signedIn",
                "dismissTVProviderDialog(\(picker))",
            ] + signedIn + signedOut)
        #expect(split(signatures("A")) == expectedA, "\(signatures("A"))")
        // B, another requestor in another process: allowed, and signed in with no picker, code or login.
        let expectedB = split(undetermined + signedIn + [#"setMetadataStatus(3,false,"Apple")"#] + signedOut)
        #expect(split(signatures("B")) == expectedB, "\(signatures("B"))")
        #expect(objects.last?["checklistViolations"] == .number(0))
        let human = try await run(["demo", "--act", "4"])
        #expect(human.status == 0)
        #expect(human.output.contains("━━ Act 4 of 4: A Linux TV's provider service"))
        for app in ["A", "B"] { #expect(human.output.contains("⚑ [\(app)] provider service event: signedOut")) }
        for chapter in DemoChapter.parse(human.output) {
            for status in chapter.statuses {
                #expect(
                    chapter.names(status), "chapter \(chapter.number) shows \(status); its caption does not explain it")
            }
        }
    }

    /// `true` when nothing listens on 127.0.0.1:`port` any more. (SO_REUSEADDR: connections
    /// the server closed may linger in TIME_WAIT; only a live socket on the port refuses the bind.)
    private static func canBind(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}

/// One chapter of the demo's output: its number, its caption, and what follows it up
/// to the next chapter.
struct DemoChapter {
    var number: Int
    var caption: String
    var body: String

    /// The advanced statuses the chapter shows (`ⓘ status N003 …`).
    var statuses: Set<String> { Set(body.matches(of: /ⓘ (?:\[\S+\] )?status (\S+)/).map { String($0.1) }) }

    /// `true` when the caption names `status` as a word of its own (APPL is not named by APPL_ERROR).
    func names(_ status: String) -> Bool {
        caption.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).contains { $0 == status }
    }

    /// Splits the demo's output into chapters. A chapter opens with `N. `; its caption runs
    /// to the first step line (`  ▶` or `  •`).
    static func parse(_ output: String) -> [DemoChapter] {
        var chapters: [DemoChapter] = []
        var inCaption = false
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let match = line.firstMatch(of: /^(\d+)\. (.*)$/), let number = Int(match.1) {
                chapters.append(DemoChapter(number: number, caption: String(match.2), body: ""))
                inCaption = true
            } else if line.hasPrefix("━━") || line.hasPrefix("Done:") {
                inCaption = false
                if !chapters.isEmpty { chapters[chapters.count - 1].body += "\n" }
                if line.hasPrefix("Done:") { break }
            } else if !chapters.isEmpty {
                if inCaption && (line.hasPrefix("  ▶") || line.hasPrefix("  •")) { inCaption = false }
                if inCaption {
                    chapters[chapters.count - 1].caption += " " + line.trimmingCharacters(in: .whitespaces)
                } else {
                    chapters[chapters.count - 1].body += line + "\n"
                }
            }
        }
        return chapters
    }
}
