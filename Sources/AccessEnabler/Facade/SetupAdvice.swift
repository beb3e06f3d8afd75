import Foundation
import Synchronization

/// Says where the app's set-up will not do what the app likely expects, through the
/// diagnostics hook: an option `setOptions` does not use, a transport that could not load
/// libcurl (and sends through URLSession), and a platform left at its default (iOS) — the
/// trap of a TV app ported with `AccessEnabler(statement)` alone, which
/// gets a login page it never opens and then waits. An app built that way has no
/// diagnostics hook either, so the platform advice is also printed to standard error, once
/// per process.
final class SetupAdvice: Sendable {
    private let diagnostics: (@Sendable (Diagnostic) -> Void)?
    private let platformLeftAtDefault: Bool
    /// Why the configured ``CurlTransport`` sends through URLSession, when it does.
    private let transportFallbackReason: String?
    private let transportAdvised = Mutex(false)
    private let platformAdvised = Mutex(false)
    private static let printedInThisProcess = Mutex(false)
    private let print: @Sendable (String) -> Void
    /// What was printed once already (the process's, unless a test gives its own).
    private let ledger: OncePerProcess

    init(
        configuration: AccessEnablerConfiguration,
        print: @escaping @Sendable (String) -> Void = SetupAdvice.writeToStandardError,
        ledger: OncePerProcess = .shared
    ) {
        diagnostics = configuration.diagnostics
        platformLeftAtDefault = configuration.platformLeftAtDefault
        transportFallbackReason = (configuration.transport as? CurlTransport)?.fallbackReason
        self.print = print
        self.ledger = ledger
    }

    /// The message of ``Diagnostic/defaultPlatform(message:)``.
    static let defaultPlatformMessage = """
        AccessEnablerConfiguration.platform was left at its default, iOS: a sign-in opens the \
        MVPD login page through navigateToUrl(_:) and a logout opens the MVPD logout page, which \
        the app must open and hand back through handleExternalURL(_:). A TV or set-top box without \
        a browser sets configuration.platform = .tvOS: the sign-in is then a registration code for \
        a second screen (status REGCODE). Set the platform explicitly to silence this message.
        """

    /// `setRequestor` was called: the first time, a transport that could not load libcurl and
    /// a platform left at its default are reported.
    func requestorSet() {
        if let reason = transportFallbackReason,
            transportAdvised.withLock({ advised in
                defer { advised = true }; return !advised
            })
        {
            // The transport printed it to standard error when it was made.
            diagnostics?(.transportFallback(message: CurlTransport.fallbackMessage(reason)))
        }
        guard platformLeftAtDefault,
            platformAdvised.withLock({ advised in
                defer { advised = true }; return !advised
            })
        else { return }
        diagnostics?(.defaultPlatform(message: Self.defaultPlatformMessage))
        let first = Self.printedInThisProcess.withLock { printed in
            defer { printed = true }; return !printed
        }
        if first { print("AccessEnabler: " + Self.defaultPlatformMessage + "\n") }
    }

    /// `setOptions` was given `options`: each key the SDK does not use is reported, and so is
    /// a `device_info` it cannot read — through the diagnostics hook and, once per process,
    /// standard error: the SDK then sends its own device information, which an app that set
    /// one must hear.
    func optionsGiven(_ options: [String: Any]) {
        if let value = options["device_info"], let problem = Self.deviceInfoProblem(value) {
            let message =
                "setOptions was given a device_info the SDK cannot read: \(problem). It has no effect: requests carry the SDK's own device information "
                + "(X-Device-Info). Pass the client information as Base64-encoded JSON (percent-encoded Base64 is read too)."
            diagnostics?(.unusedOption(key: "device_info", message: message))
            if ledger.firstTime("device_info") { print("AccessEnabler: " + message + "\n") }
        }
        guard let diagnostics else { return }
        let used = SDKOptions.knownKeys.sorted().joined(separator: ", ")
        for key in SDKOptions.unusedKeys(options) {
            diagnostics(
                .unusedOption(
                    key: key,
                    message:
                        "setOptions was given \"\(key)\", which this SDK does not use: it has no effect. The options it reads are \(used)."
                ))
        }
    }

    /// Why the `device_info` option `value` cannot be used, or `nil`.
    private static func deviceInfoProblem(_ value: Any) -> String? {
        guard let text = value as? String else { return "it is a \(type(of: value)), not a String" }
        return DeviceInfoOption.problem(text)?.reason
    }

    private static func writeToStandardError(_ message: String) {
        FileHandle.standardError.write(Data(message.utf8))
    }
}
