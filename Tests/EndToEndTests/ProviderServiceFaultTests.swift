import AccessEnabler
import Foundation
import LineServerHarness
import PassSandbox
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What goes wrong between an app and the device's provider service, each in processes of
/// their own: the service killed mid-call, the socket it left behind, a line of garbage, an
/// answer that never comes, another user's process. Each ends in one terminal callback or
/// a refused connection, and nothing the service kept is lost.
@Suite("Provider service: faults across processes", .timeLimit(.minutes(20)))
struct ProviderServiceFaultTests {
    static let notAuthenticated = "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"
    static let applError = ["status(APPL_ERROR,error)", "sendTrackingData(0,false,)", notAuthenticated]

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theServiceKilledMidCallEndsTheCallOnceAndLosesNothing() async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            try await device.startService()
            try await device.admin("grant", app: ("REF30", "News"))
            let news = try await device.app("News")
            try await news.call("setRequestor")
            // getAuthentication waits inside the service for the household's sign-in.
            try await news.start("getAuthentication")
            _ = try await news.waitForLine(containing: #""event":"signInStarted""#)
            try await device.killService()
            let picker = ProviderServiceSeedRowsTests.picker
            #expect(
                try await news.finish("getAuthentication") == [
                    "presentTVProviderDialog(\(picker))", "dismissTVProviderDialog(\(picker))", "status(VSA503,info)",
                    ProviderServiceSeedRowsTests.allMVPDs,
                ], "the metadata request failed: one hand-over to the app's own picker")
            #expect(news.lines.contains { $0.contains("VSA503") && $0.contains("stopped or restarted") })
            // A restarted service has what it kept: the app's permission.
            try await device.startService()
            #expect(
                (try await device.admin("status")["permissions"] as? [[String: Any]])?.first?["accessStatus"] as? String
                    == "granted")
            try await device.signInHousehold()
            #expect(try await news.call("setRequestor") == ["setRequestorComplete(1)"])
            #expect(
                try await news.call("checkAuthentication") == [
                    "sendTrackingData(0,true,AppleBoarded)", "setAuthenticationStatus(1,)",
                ])
            // Killed and restarted again: the household's sign-in survives too.
            try await device.killService()
            try await device.startService()
            #expect(
                try await news.call("checkAuthentication") == [
                    "sendTrackingData(0,true,AppleBoarded)", "setAuthenticationStatus(1,)",
                ])
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aStaleSocketIsAnErrorUntilTheServiceStartsAgainAndTakesItOver() async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            try await device.startService()
            try await device.signInHousehold()
            try await device.admin("grant", app: ("REF30", "News"))
            try await device.killService()
            #expect(FileManager.default.fileExists(atPath: device.socket), "a killed service leaves its socket file")
            let news = try await device.app("News", events: false)
            #expect(try await news.call("setRequestor") == ["status(APPL,error)", "setRequestorComplete(1)"])
            #expect(try await news.call("checkAuthentication") == Self.applError)
            #expect(
                news.lines.contains { $0.contains("is not running") && $0.contains("accessenabler provider-service") })
            try await device.startService()
            #expect(device.service?.output.contains("removed a stale socket") == true)
            #expect(try await news.call("setRequestor") == ["setRequestorComplete(1)"])
            #expect(
                try await news.call("checkAuthentication") == [
                    "sendTrackingData(0,true,AppleBoarded)", "setAuthenticationStatus(1,)",
                ])
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aServiceAnsweringGarbageOrNotAtAllIsAPartnerErrorNeverAWait() async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            try FileManager.default.createDirectory(
                atPath: (device.socket as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            // The garbage comes at once: a long answer timeout, so that a busy machine cannot
            // turn it into a timeout; the silence needs a short one, to end the test soon.
            for (behaviour, timeout, words) in [
                (FakeLineServer.Behaviour.answer("garbage\n"), "120", "not its protocol"),
                (.silence, "2", "did not answer within 2 s"),
            ] {
                let server = try FakeLineServer(path: device.socket, behaviour: behaviour)
                let news = try await device.app("News", events: false, extra: ["--answer-timeout", timeout])
                #expect(
                    try await news.call("setRequestor") == ["status(APPL,error)", "setRequestorComplete(1)"], "\(words)"
                )
                #expect(try await news.call("checkAuthentication") == Self.applError, "\(words)")
                #expect(news.lines.contains { $0.contains(words) }, "\(words): \(news.lines)")
                withExtendedLifetime(server) {}
            }
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aGarbageLineToTheServiceIsAnsweredAndTheServiceGoesOn() async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            try await device.startService()
            let lines = [
                "not json", #"{"op":"hello"}"#, #"{"id":1,"op":"launch"}"#, #"{"id":2,"v":7,"op":"hello"}"#,
                String(repeating: "x", count: 70_000),
            ]
            let socat = try RunningCommand(
                URL(fileURLWithPath: "/usr/bin/socat"), ["-t", "5", "-", "UNIX-CONNECT:\(device.socket)"],
                keepInputOpen: true)
            // More than a pipe holds: written while socat reads.
            socat.send(lines.joined(separator: "\n") + "\n")
            socat.closeInput()
            _ = try await socat.waitForEnding(timeout: ProviderDevice.bound)
            let answers = socat.output.split(separator: "\n").map(String.init)
            #expect(answers.count == 5, "\(socat.output)")
            #expect(answers.prefix(2).allSatisfy { $0.contains(#""code":"badRequest""#) })
            #expect(answers.dropFirst(2).first?.contains(#""code":"unknownOperation""#) == true)
            #expect(answers.dropFirst(3).first?.contains(#""code":"unsupportedVersion""#) == true)
            #expect(answers.last?.contains(#""code":"lineTooLong""#) == true)
            try await device.admin("grant", app: ("REF30", "News"))
            let news = try await device.app("News")
            #expect(try await news.call("setRequestor") == ["setRequestorComplete(1)"], "the service still serves")
        }
    }

    @Test(
        .enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt),
        .enabled(
            if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv"))
    func anotherUsersProcessIsRefused() async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            try await device.startService()
            try await device.signInHousehold()
            let asNobody = { (path: String) throws -> RunningCommand in
                try RunningCommand(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    [
                        "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", "5", "-",
                        "UNIX-CONNECT:\(path)",
                    ],
                    input: Data((#"{"id":1,"op":"status"}"# + "\n").utf8))
            }
            // The socket's directory is the service user's alone: the kernel refuses the connection.
            #expect(chmod(device.root.path, 0o755) == 0)
            let blocked = try asNobody(device.socket)
            #expect(try await blocked.waitForExit(timeout: ProviderDevice.bound) != 0)
            #expect(blocked.errors.contains("Permission denied"), "\(blocked.errors)")
            // Loosened by hand, the socket lets it connect: the service asks the kernel who it is
            // (SO_PEERCRED) and refuses it.
            #expect(chmod((device.socket as NSString).deletingLastPathComponent, 0o755) == 0)
            #expect(chmod(device.socket, 0o666) == 0)
            // It wrote its request before it read: it still reads the refusal (the service reads
            // and drops what it sends), not a broken pipe.
            let refused = try asNobody(device.socket)
            _ = try await refused.waitForEnding(timeout: ProviderDevice.bound)
            #expect(refused.output.contains(#""code":"notPermitted""#), "\(refused.output)\(refused.errors)")
            #expect(!refused.output.contains("AppleBoarded"), "nothing about the household")
            _ = try await device.service?.waitForOutput(
                containing: "refused a connection from user 65534", timeout: ProviderDevice.bound)
            #expect(
                try await device.admin("status")["household"] is [String: Any], "the service's own user is still served"
            )
        }
    }

    @Test(
        .enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt),
        .enabled(
            if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv"))
    func aSystemWideServiceServesItsGroupsMembersAsAppsOnly() async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            let socket = device.root.appendingPathComponent("system/provider.sock").path
            try await device.startService(extra: ["--socket", socket, "--group", "nogroup"])
            #expect(chmod(device.root.path, 0o755) == 0)
            var info = stat()
            #expect(
                stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o660 && info.st_gid == 65_534, "0660, of the group"
            )
            let lines = [#"{"id":1,"op":"hello"}"#, #"{"id":2,"op":"status"}"#, #"{"id":3,"op":"signOut"}"#]
            let member = try RunningCommand(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", "5", "-",
                    "UNIX-CONNECT:\(socket)",
                ],
                input: Data((lines.joined(separator: "\n") + "\n").utf8))
            _ = try await member.waitForEnding(timeout: ProviderDevice.bound)
            let answers = member.output.split(separator: "\n").map(String.init)
            #expect(answers.count == 3, "\(member.output)\(member.errors)")
            #expect(answers.first?.contains(#""ok":true"#) == true, "a member of the group is an app")
            #expect(
                answers.dropFirst().allSatisfy { $0.contains(#""code":"notPermitted""#) }, "but not an administrator")
        }
    }
}
