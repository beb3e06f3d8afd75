import Foundation

/// The device's way to ask the person whether an app may use the household's TV provider
/// sign-in: a command the device maker supplies (`--prompt-command`), run with `/bin/sh -c`.
///
/// The command learns the app from its environment — `ACCESSENABLER_APP_NAME` and
/// `ACCESSENABLER_APP_REQUESTOR` — and answers with the first word it prints (`granted`,
/// `denied` or `restricted`), or, when it prints none of them, with its exit status: 0
/// granted, 1 denied, anything else no answer (the person dismissed the question). A
/// command that runs longer than `timeout` is killed, with what it started: no answer.
package struct PromptHook: Sendable {
    /// The shell command.
    package var command: String
    /// Seconds the person has to answer.
    package var timeout: TimeInterval

    package init(command: String, timeout: TimeInterval) {
        self.command = command
        self.timeout = timeout
    }

    /// Asks about `app`; `nil` when the person gave no answer.
    package func ask(_ app: AppIdentity) async -> AppPermission? {
        let (ending, output) = await ChildProcess.run(
            ["/bin/sh", "-c", command],
            environment: ["ACCESSENABLER_APP_NAME": app.name, "ACCESSENABLER_APP_REQUESTOR": app.requestor],
            timeout: timeout)
        return Self.answer(ending: ending, output: output)
    }

    /// The answer a command's ending and output give.
    package static func answer(ending: ChildProcess.Ending, output: String) -> AppPermission? {
        switch ending {
        case .timedOut, .notStarted: return nil
        case .exited, .signalled: break
        }
        if let word = output.split(whereSeparator: { $0.isWhitespace }).first,
            let permission = AppPermission(rawValue: String(word))
        {
            return permission == .notDetermined ? nil : permission
        }
        switch ending {
        case .exited(0): return .granted
        case .exited(1): return .denied
        default: return nil
        }
    }
}
