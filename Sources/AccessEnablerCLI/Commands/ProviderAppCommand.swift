import AccessEnabler
import AccessEnablerScenarios
import Foundation

/// `accessenabler provider-app` (not listed in the usage): one app of a device, in a process
/// of its own, whose partner framework is the device's provider service. The demo's act 4
/// and the tests run two of them beside `accessenabler provider-service`.
///
/// It reads calls from standard input, one per line — `setRequestor`, `checkAuthentication`,
/// `getAuthentication`, `logout`, `checkAuthorization RESOURCE`, `getMetadata KEY`,
/// `restart` (a new AccessEnabler over the same storage), `quit` — makes each on its
/// AccessEnabler, and prints each callback as the scenario transcript writes it, then
/// `{"done":"NAME"}` once the call has settled. With `--events` it also prints what the
/// service tells its subscribers, as `{"event":…}` lines.
enum ProviderAppCommand {
    static let synopsis = CommandSynopsis(
        name: "provider-app", argument: nil,
        summary: "One app of a device, driven line by line, whose partner framework is the device's provider service.",
        options: [
            .init(name: "--sandbox", value: "URL", summary: "the Adobe Pass base URL (PassSandbox's)"),
            .init(name: "--socket", value: "PATH", summary: "the provider service's socket"),
            .init(name: "--requestor", value: "ID", summary: "the requestor id"),
            .init(name: "--name", value: "NAME", summary: "the app's name, as the service shows it"),
            .init(name: "--statement", value: "S", summary: "the software statement (default STATEMENT)"),
            .init(name: "--storage", value: "DIR", summary: "the app's storage directory"),
            .init(name: "--label", value: "L", summary: "the \"app\" key of each transcript line"),
            .init(name: "--answer-timeout", value: "S", summary: "seconds the service has to answer a silent question"),
            .init(name: "--interaction-timeout", value: "S", summary: "seconds a question may wait for the person"),
            .init(name: "--events", value: nil, summary: "also print the service's events"),
        ])

    static let help = """
        Usage: \(synopsis.usageLine)

        One app of a device, for the demo and the tests: reads calls from standard input, one
        per line (setRequestor, checkAuthentication, getAuthentication, logout,
        checkAuthorization RESOURCE, getMetadata KEY, restart, quit), and prints each callback
        as a transcript line, then {"done":"CALL"} when the call has settled.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch CommandArguments(arguments, synopsis: synopsis, help: help) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        guard let sandboxText = parsed.values["--sandbox"], let sandbox = URL(string: sandboxText),
            let socket = parsed.values["--socket"],
            let requestor = parsed.values["--requestor"], let name = parsed.values["--name"],
            let storage = parsed.values["--storage"]
        else {
            printError(
                "accessenabler provider-app: --sandbox, --socket, --requestor, --name and --storage are "
                    + "needed.\n\n\(help)"
            )
            return 2
        }
        var partner = DeviceProviderService(requestor: requestor, appName: name, socketPath: socket)
        if let seconds = parsed.values["--answer-timeout"].flatMap(Double.init), seconds.isFinite, seconds > 0 {
            partner.answerTimeout = seconds
        }
        if let seconds = parsed.values["--interaction-timeout"].flatMap(Double.init), seconds.isFinite, seconds > 0 {
            partner.interactionTimeout = seconds
        }
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(sandbox)
        configuration.platform = .tvOS
        configuration.storageDirectory = URL(fileURLWithPath: storage)
        configuration.partnerFramework = partner
        let recorder = CallbackRecorder(
            observer: { line in ProviderAppOutput.write(line.json) }, app: parsed.values["--label"])
        let statement = parsed.values["--statement"] ?? "STATEMENT"
        var accessEnabler = Self.make(statement, configuration, recorder)
        var events: Task<Void, Never>?
        if parsed.flags.contains("--events") {
            events = Task {
                let label = parsed.values["--label"].map { #"{"app":\#(JSONValue.quote($0)),"# } ?? "{"
                for await event in partner.events() { ProviderAppOutput.write(label + Self.line(event).dropFirst()) }
            }
        }
        defer { events?.cancel() }
        for await line in Self.standardInputLines() {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let call = words.first else { continue }
            let argument = words.count > 1 ? words[1] : ""
            switch call {
            case "setRequestor": accessEnabler.setRequestor(requestor)
            case "checkAuthentication": accessEnabler.checkAuthentication()
            case "getAuthentication": accessEnabler.getAuthentication()
            case "logout": accessEnabler.logout()
            case "checkAuthorization": accessEnabler.checkAuthorization(argument)
            case "getMetadata":
                accessEnabler.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: argument])
            case "restart":
                await accessEnabler.waitUntilIdle()
                accessEnabler = Self.make(statement, configuration, recorder)
            case "quit":
                await accessEnabler.waitUntilIdle()
                return 0
            default:
                ProviderAppOutput.write(#"{"unknownCall":\#(JSONValue.quote(call))}"#)
                continue
            }
            await accessEnabler.waitUntilIdle()
            ProviderAppOutput.write(#"{"done":\#(JSONValue.quote(call))}"#)
        }
        await accessEnabler.waitUntilIdle()
        return 0
    }

    /// Standard input's lines, read on a thread of their own (a blocked read must not hold
    /// one of Swift's few cooperative threads, which the SDK's work needs).
    private static func standardInputLines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let thread = Thread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        thread.start()
        return stream
    }

    private static func make(
        _ statement: String, _ configuration: AccessEnablerConfiguration, _ recorder: CallbackRecorder
    ) -> AccessEnabler {
        let accessEnabler = AccessEnabler(softwareStatement: statement, configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        return accessEnabler
    }

    /// An event as a line: `{"event":"signedOut"}`, `{"event":"signInStarted","code":…,"url":…}`.
    static func line(_ event: DeviceProviderEvent) -> String {
        switch event {
        case .signInStarted(let code, let url, _):
            #"{"event":"signInStarted","code":\#(JSONValue.quote(code)),"url":\#(JSONValue.quote(url))}"#
        case .signedIn(let provider, _): #"{"event":"signedIn","provider":\#(JSONValue.quote(provider))}"#
        case .subscribed: #"{"event":"subscribed"}"#
        case .signedOut: #"{"event":"signedOut"}"#
        case .signInEnded(let reason): #"{"event":"signInEnded","reason":\#(JSONValue.quote(reason))}"#
        case .permissionChanged(let requestor, let name, let access):
            #"{"event":"permissionChanged","requestor":\#(JSONValue.quote(requestor)),"#
                + #""name":\#(JSONValue.quote(name)),"accessStatus":\#(JSONValue.quote("\(access)"))}"#
        case .connectionLost: #"{"event":"connectionLost"}"#
        }
    }
}

/// Standard output, one whole line at a time, written at once (callbacks and events arrive
/// on several threads).
enum ProviderAppOutput {
    private static let lock = NSLock()

    static func write(_ line: String) {
        lock.withLock { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }
}
