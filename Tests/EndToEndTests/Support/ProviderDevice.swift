import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A Linux device with its provider service and its apps, each in a process of its own:
/// `accessenabler provider-service` and one `accessenabler provider-app` per app, beside a
/// PassSandbox this test process serves over loopback HTTP (playing Adobe Pass and the TV
/// providers). The test is the person: it answers the device's prompt (a file the prompt
/// command reads) and signs in on the provider's page over HTTP.
final class ProviderDevice: @unchecked Sendable {
    let root: URL
    let sandbox: PassSandbox
    let server: LoopbackHTTPServer
    let base: URL
    private(set) var service: RunningCommand?
    private let executable: URL
    /// How long a child may take to do what a step waits for, however busy the machine.
    static let bound = SanitizerTiming.scaled(120)

    var socket: String { root.appendingPathComponent("run/provider.sock").path }
    var stateDirectory: String { root.appendingPathComponent("state").path }
    /// The file the device's prompt command reads the person's answer from.
    var promptAnswer: URL { root.appendingPathComponent("prompt-answer") }

    init() throws {
        Self.ignoreBrokenPipes
        executable = try #require(SandboxExecutable.url)
        root = URL(fileURLWithPath: "/tmp").appendingPathComponent("ae-device-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        sandbox = PassSandbox(clock: SandboxClock.system)
        (server, base) = try sandbox.serveOverLoopback()
    }

    deinit {
        service?.stopGracefully(signal: SIGTERM)
        server.shutdown()
        try? FileManager.default.removeItem(at: root)
    }

    /// A test process writing to a child that died gets an error, not SIGPIPE.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Starts the service (again, after ``killService()``) and waits until it listens.
    /// `prompt`: the device can ask the person (the answer is what ``answerPrompt(_:)`` wrote).
    /// `extra` options come last (a later `--socket` wins).
    func startService(prompt: Bool = true, signInWait: Int? = nil, extra: [String] = []) async throws {
        var arguments = [
            "provider-service", "--identity-provider", base.absoluteString, "--socket", socket, "--state-dir",
            stateDirectory,
        ]
        if prompt {
            arguments += [
                "--prompt-command", "cat '\(promptAnswer.path)' 2>/dev/null || exit 2", "--prompt-timeout", "30",
            ]
        }
        if let signInWait { arguments += ["--sign-in-wait", String(signInWait)] }
        // A busy machine may take its time: no verdict here rests on a request's speed.
        arguments += ["--identity-provider-timeout", "60"]
        let started = try RunningCommand(executable, arguments + extra)
        service = started
        _ = try await started.waitForOutput(containing: "provider-service: listening at", timeout: Self.bound)
    }

    /// Kills the service as a crash would (SIGKILL): it removes nothing.
    func killService() async throws {
        guard let service else { return }
        kill(service.processIdentifier, SIGKILL)
        _ = try await service.waitForEnding(timeout: Self.bound)
        self.service = nil
    }

    /// What the person answers when the device asks (nil: they dismiss the question).
    func answerPrompt(_ answer: String?) throws {
        if let answer {
            try Data((answer + "\n").utf8).write(to: promptAnswer)
        } else {
            try? FileManager.default.removeItem(at: promptAnswer)
        }
    }

    /// Starts an app: `name` with requestor `requestor` (software statement `statement`), in a
    /// process of its own with storage of its own. With `events`, it subscribes to the
    /// service's events, and is returned once the subscription is in force.
    func app(
        _ name: String, requestor: String = "REF30", statement: String = "STATEMENT", events: Bool = true,
        extra: [String] = []
    ) async throws -> DeviceApp {
        let storage = root.appendingPathComponent("app-\(name.replacingOccurrences(of: " ", with: "-"))").path
        var arguments = [
            "provider-app", "--sandbox", base.absoluteString, "--socket", socket, "--requestor", requestor, "--name",
            name, "--statement", statement,
            "--storage", storage,
            // A busy machine may take its time: no verdict here rests on an answer's speed
            // (a test of the timeout gives its own, later, which wins).
            "--answer-timeout", "120",
        ]
        if events { arguments.append("--events") }
        let app = DeviceApp(try RunningCommand(executable, arguments + extra, keepInputOpen: true))
        if events { _ = try await app.waitForLine(containing: #"{"event":"subscribed"}"#) }
        return app
    }

    /// An administrator's request to the service (this test runs as the service's user).
    @discardableResult
    func admin(_ op: String, app: (requestor: String, name: String)? = nil) async throws -> [String: Any] {
        var request: [String: Any] = ["v": 1, "id": 1, "op": op]
        if let app { request["app"] = ["requestor": app.requestor, "name": app.name] }
        let line = String(
            decoding: try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys]), as: UTF8.self)
        let bytes = try await ProviderServiceSocket.exchange(
            path: socket, line: line, connectTimeout: 5, answerTimeout: Self.bound
        ).get()
        return try #require((try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any])
    }

    /// The person signs the household in on the provider's page with the code the device shows.
    @discardableResult
    func signIn(
        code: String, _ choice: HouseholdPageChoice = .provider("AppleBoarded", username: "alice", password: "alice123")
    ) async throws
        -> HouseholdPageOutcome
    {
        try await SimulatedUserAgent(httpBase: base).signInHousehold(code: code, choice: choice)
    }

    /// Signs the household in through the service's `signIn` and waits until the service has it.
    func signInHousehold(
        _ choice: HouseholdPageChoice = .provider("AppleBoarded", username: "alice", password: "alice123")
    ) async throws {
        let started = try await admin("signIn")
        let code = try #require((started["signIn"] as? [String: Any])?["code"] as? String)
        try await signIn(code: code, choice)
        try await waitForTheHousehold()
    }

    /// Waits until the service has the household's sign-in (its next poll after the page).
    func waitForTheHousehold() async throws {
        let deadline = Date().addingTimeInterval(Self.bound)
        while try await admin("status")["household"] is NSNull {
            guard Date() < deadline else {
                throw ProviderDeviceError.stuck("the service never saw the household's sign-in")
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
    }
}

enum ProviderDeviceError: Error {
    case stuck(String)
}

/// One app process of a ``ProviderDevice``, driven a call at a time.
final class DeviceApp: @unchecked Sendable {
    let process: RunningCommand
    /// Lines of standard output already handed out.
    private var consumed = 0

    init(_ process: RunningCommand) { self.process = process }

    deinit {
        // Its input's end ends it.
        process.stopGracefully()
    }

    /// The output's whole lines so far (a line being written is not one yet).
    var lines: [String] {
        let output = process.output
        guard let last = output.lastIndex(of: "\n") else { return [] }
        return output[..<last].split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Makes `call` (a line of `provider-app`'s input) and waits until it settled; returns the
    /// signatures of the callbacks it produced, in order.
    @discardableResult
    func call(_ call: String) async throws -> [String] {
        try await start(call)
        return try await finish(call)
    }

    /// Makes `call` without waiting for it to settle.
    func start(_ call: String) async throws {
        process.send(call + "\n")
    }

    /// Waits until the last call started settled; its callbacks' signatures.
    func finish(_ call: String) async throws -> [String] {
        let marker = #"{"done":"\#(call.split(separator: " ").first ?? "")"}"#
        let deadline = Date().addingTimeInterval(ProviderDevice.bound)
        while true {
            let all = lines
            if let end = all.indices.dropFirst(consumed).first(where: { all[$0].hasPrefix(#"{"done":"#) }) {
                let produced = all[consumed..<end]
                consumed = end + 1
                guard all[end] == marker else { throw ProviderDeviceError.stuck("\(call) ended as \(all[end])") }
                return produced.compactMap(Self.signature)
            }
            guard Date() < deadline, process.isRunning else {
                throw ProviderDeviceError.stuck("\(call) did not settle: \(process.output)\n\(process.errors)")
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// Waits until a line containing `text` appears after what was handed out; returns it.
    func waitForLine(containing text: String) async throws -> String {
        let deadline = Date().addingTimeInterval(ProviderDevice.bound)
        while true {
            if let line = lines.dropFirst(consumed).first(where: { $0.contains(text) }) { return line }
            guard Date() < deadline, process.isRunning else {
                throw ProviderDeviceError.stuck("no line with \(text): \(process.output)\n\(process.errors)")
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// The signature of a transcript line (`nil` for markers and events).
    static func signature(_ line: String) -> String? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8)),
            object["callback"] != nil
        else { return nil }
        return CallbackSignature.of(TranscriptLine(object.map { (key: $0.key, value: $0.value) }))
    }
}
