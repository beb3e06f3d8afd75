import AccessEnabler
import AccessEnablerProviderService
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `accessenabler provider-service`: runs the device's TV provider account service, or, with
/// a verb, asks the running one (`status`, `grant`, `deny`, `restrict`, `reset`, `signin`,
/// `signout`).
enum ProviderServiceCommand {
    static let synopsis = CommandSynopsis(
        name: "provider-service", argument: nil,
        summary: "Run the device's TV provider service (one sign-in for every app); with a verb, ask the running one.",
        options: [
            .init(
                name: "--identity-provider", value: "URL",
                summary: "the TV provider identity service (PassSandbox's address in development)"),
            .init(
                name: "--socket", value: "PATH",
                summary: "the socket (default $XDG_RUNTIME_DIR/accessenabler/provider.sock)"),
            .init(
                name: "--state-dir", value: "DIR",
                summary: "where the sign-in and permissions are kept (default ~/.local/state/…)"),
            .init(
                name: "--prompt-command", value: "CMD",
                summary: "how the device asks the person whether an app may use the sign-in"),
            .init(
                name: "--prompt-timeout", value: "S",
                summary: "seconds the person has to answer the prompt (default 60)"),
            .init(
                name: "--sign-in-wait", value: "S",
                summary: "longest an app may wait for the person to sign in (default 900)"),
            .init(
                name: "--identity-provider-timeout", value: "S",
                summary: "seconds one request to the identity service may take (default 10)"),
            .init(
                name: "--group", value: "NAME",
                summary: "a system-wide service: the group's members may connect as apps"),
        ])

    /// The verbs that ask a running service, with what each takes.
    static let verbs: [String: CommandSynopsis] = {
        let socket = CommandSynopsis.Option(
            name: "--socket", value: "PATH", summary: "the service's socket (default as the service's)")
        let app = [
            CommandSynopsis.Option(name: "--requestor", value: "ID", summary: "the app's requestor id"),
            CommandSynopsis.Option(name: "--name", value: "NAME", summary: "the name the app presents"),
        ]
        var verbs: [String: CommandSynopsis] = [
            "status": CommandSynopsis(
                name: "provider-service status", argument: nil,
                summary: "Show the household's sign-in, a sign-in under way and every app's permission.",
                options: [socket, .init(name: "--json", value: nil, summary: "print the service's answer line")]),
            "signin": CommandSynopsis(
                name: "provider-service signin", argument: nil,
                summary: "Start the household's sign-in and print the code to type on a phone.",
                options: [socket, .init(name: "--wait", value: nil, summary: "wait until the sign-in ends")]),
            "signout": CommandSynopsis(
                name: "provider-service signout", argument: nil,
                summary: "Sign the household out: every app sees it at its next check.", options: [socket]),
        ]
        for (verb, summary) in [
            ("grant", "Allow an app to use the sign-in."), ("deny", "Refuse an app the sign-in."),
            ("restrict", "Restrict an app (it may not even ask)."),
            ("reset", "Forget an app's answer (the next prompt asks again)."),
        ] {
            verbs[verb] = CommandSynopsis(
                name: "provider-service \(verb)", argument: nil, summary: summary, options: app + [socket])
        }
        return verbs
    }()

    static var help: String {
        """
        Usage: \(synopsis.usageLine)
               accessenabler provider-service status|signin|signout [--socket PATH]
               accessenabler provider-service grant|deny|restrict|reset --requestor ID --name NAME [--socket PATH]

        Runs the device's TV provider account service, the Video Subscriber Account of a Linux
        device: the household signs in to its TV provider once (a code typed on a phone), and
        every app on the device that the person allows signs in with it, silently. Apps reach
        it through the SDK's DeviceProviderService partner framework, or any language through
        its line protocol on the Unix socket (Docs/ProviderService.md).

        The socket is --socket PATH, by default $XDG_RUNTIME_DIR/accessenabler/provider.sock, in a
        directory of mode 0700 (the socket 0600): only this user's processes connect, and the
        kernel's account of each connecting process (SO_PEERCRED) refuses any other user's. With
        --group NAME (a system-wide service) the directory is 0750 and the socket 0660, of that
        group: its members connect as apps; only the service's own user and root may ask status,
        grant, deny, restrict, reset, signin and signout.
        The state (the household's sign-in and each app's permission) is kept in --state-dir
        DIR, by default $XDG_STATE_HOME/accessenabler/provider-service (~/.local/state/…), in one
        file of mode 0600 replaced whole at each change.
        --identity-provider URL is the TV provider identity service the household signs in with;
        in development, PassSandbox's address (`accessenabler sandbox` prints it).
        --prompt-command CMD is run (by /bin/sh) when an app asks to prompt and the person has not
        answered for it; ACCESSENABLER_APP_NAME and ACCESSENABLER_APP_REQUESTOR name the app; it
        answers with the first word it prints (granted, denied, restricted), else its exit status
        (0 granted, 1 denied, other: no answer), within --prompt-timeout seconds.
        Without it, a person or an administrator answers with `provider-service grant`.

        The verbs ask the running service and print its answer:
          status                 the sign-in, a sign-in under way and every app's permission
          signin [--wait]        start the household sign-in: prints the address and the code
          signout                sign the household out; every app sees it at its next check
          grant|deny|restrict|reset --requestor ID --name NAME
                                 set (or, with reset, forget) an app's permission
        Exit status: 0 when done, 1 when the service could not be asked or refused, 2 for misuse.
        """
    }

    static func run(_ arguments: [String]) async -> Int32 {
        if let verb = arguments.first, !verb.hasPrefix("-") {
            guard let synopsis = verbs[verb] else {
                printError("accessenabler provider-service: unknown verb '\(verb)'.\n\n\(help)")
                return 2
            }
            return await ProviderServiceAdmin.run(
                verb: verb, Array(arguments.dropFirst()), synopsis: synopsis, help: help)
        }
        let parsed: ParsedArguments
        switch CommandArguments(arguments, synopsis: synopsis, help: help) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        let settings: ProviderService.Settings
        switch Self.settings(parsed) {
        case .failure(let problem):
            printError(
                "accessenabler provider-service: \(problem.text)\n\nRun `accessenabler provider-service --help` for "
                    + "the options."
            )
            return 2
        case .success(let found): settings = found
        }
        let service: ProviderService
        do {
            service = try ProviderService(settings: settings, log: ProviderServiceLog.write)
        } catch {
            printError("accessenabler provider-service: cannot start: \(error.description)")
            return 1
        }
        ProviderServiceLog.write(
            "listening at \(settings.socketPath) (user "
                + "\(geteuid())\(settings.sharing == .user ? " only" : " and its group's apps"))"
        )
        ProviderServiceLog.write("state in \(settings.stateDirectory): \(service.summary)")
        ProviderServiceLog.write("TV provider identity service: \(settings.identityProvider.absoluteString)")
        let noPrompt = "none (an administrator grants with `accessenabler provider-service grant`)"
        ProviderServiceLog.write("prompt: " + (settings.prompt?.command ?? noPrompt))
        InterruptSignals.onInterrupt { service.stop() }
        await service.run()
        ProviderServiceLog.write("stopped")
        return 0
    }

    /// The settings the options give, or what is wrong with them.
    /// What is wrong with the options, in a sentence.
    struct Problem: Error {
        var text: String
    }

    static func settings(_ parsed: ParsedArguments) -> Result<ProviderService.Settings, Problem> {
        guard let text = parsed.values["--identity-provider"] else {
            return .failure(
                Problem(
                    text:
                        "--identity-provider URL is needed: the TV provider identity service (in development, "
                        + "PassSandbox's address)."
                ))
        }
        guard let identityProvider = URL(string: text), let scheme = identityProvider.scheme,
            ["http", "https"].contains(scheme.lowercased()),
            identityProvider.host != nil
        else { return .failure(Problem(text: "--identity-provider needs an http or https URL, got \(text).")) }
        guard let socket = parsed.values["--socket"] ?? DeviceProviderService.defaultSocketPath() else {
            return .failure(
                Problem(
                    text:
                        "XDG_RUNTIME_DIR is not set and /run/user/\(getuid()) does not exist: choose the socket with "
                        + "--socket PATH."
                ))
        }
        var settings = ProviderService.Settings(
            socketPath: socket, stateDirectory: parsed.values["--state-dir"] ?? defaultStateDirectory(),
            identityProvider: identityProvider)
        var promptTimeout: TimeInterval = 60
        if let text = parsed.values["--prompt-timeout"] {
            guard let value = Double(text), value.isFinite, (1...3_600).contains(value) else {
                return .failure(
                    Problem(text: "--prompt-timeout needs a number of seconds from 1 to 3600, got \(text)."))
            }
            promptTimeout = value
        }
        if let command = parsed.values["--prompt-command"] {
            settings.prompt = PromptHook(command: command, timeout: promptTimeout)
        }
        if let text = parsed.values["--sign-in-wait"] {
            guard let value = Double(text), value.isFinite, (1...3_600).contains(value) else {
                return .failure(Problem(text: "--sign-in-wait needs a number of seconds from 1 to 3600, got \(text)."))
            }
            settings.maximumWait = value
            settings.defaultWait = min(settings.defaultWait, value)
        }
        if let text = parsed.values["--identity-provider-timeout"] {
            guard let value = Double(text), value.isFinite, (1...600).contains(value) else {
                return .failure(
                    Problem(text: "--identity-provider-timeout needs a number of seconds from 1 to 600, got \(text)."))
            }
            settings.identityProviderTimeout = value
        }
        if let name = parsed.values["--group"] {
            guard let group = getgrnam(name) else {
                return .failure(Problem(text: "--group \(name): there is no such group."))
            }
            settings.sharing = .group(group.pointee.gr_gid)
        }
        return .success(settings)
    }

    /// `$XDG_STATE_HOME/accessenabler/provider-service`, else under `~/.local/state`.
    static func defaultStateDirectory() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/accessenabler/provider-service"
        }
        return FileManager.default.homeDirectoryForCurrentUser.path + "/.local/state/accessenabler/provider-service"
    }
}

/// The service's log: one line per fact, on standard output, with the time.
enum ProviderServiceLog {
    private static let lock = NSLock()

    @Sendable static func write(_ text: String) {
        let line = "\(LogTimestamp.now()) provider-service: \(text)\n"
        lock.withLock { FileHandle.standardOutput.write(Data(line.utf8)) }
    }
}

/// The wall-clock time as the logs write it (`2026-01-01T00:00:03.250Z`).
enum LogTimestamp {
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
