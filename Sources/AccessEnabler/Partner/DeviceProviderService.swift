import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The device's TV provider account service, `accessenabler provider-service`, as the
/// partner framework: the Video Subscriber Account of a Linux device.
///
/// The household signs in to its TV provider once, at the service (a code on a second
/// screen); every app of the device that the person allows then signs in silently, as
/// Apple's single sign-on does on Apple devices. Set it as the partner framework:
///
/// ```swift
/// var configuration = AccessEnablerConfiguration()
/// configuration.partnerFramework = DeviceProviderService(requestor: "REF30", appName: "News")
/// ```
///
/// Each question is one line to the service's Unix socket and one line back (one JSON object
/// each, a protocol any language can speak), bounded in time: a service that is not running, does not
/// answer in time, answers something unreadable or goes away mid-answer is an error of the
/// partner framework (`APPL_ERROR` at `checkAuthentication`, `VSA503` inside
/// `getAuthentication`), never a wait without end. The calls are safe from any thread.
///
/// Adobe Pass serves partner single sign-on to platforms Adobe has onboarded as partners:
/// against production it works only once Adobe has onboarded the device maker. PassSandbox
/// plays Adobe Pass and the TV provider for development and tests.
/// <doc:OneTVProviderSignInForEveryApp> tells the whole story.
public struct DeviceProviderService: PartnerFramework, CustomStringConvertible {
    /// The requestor id the app signs in with (`setRequestor`'s): with ``appName``, how the
    /// service knows the app and keeps its permission.
    public var requestor: String
    /// The app's name as the person knows it: the service's prompt and status show it.
    public var appName: String
    /// The service's socket.
    public var socketPath: String
    /// Seconds to connect to the service.
    public var connectTimeout: TimeInterval = 2
    /// Seconds the service has to answer a question that does not wait for the person (one
    /// with a SAML request includes the service's request to the TV provider).
    public var answerTimeout: TimeInterval = 15
    /// Seconds a question may wait for the person: the permission prompt, or the household
    /// sign-in started by `getAuthentication` when nobody is signed in. The service answers
    /// `userCancelled` when it runs out (the picker's "cancelled" row, N005).
    public var interactionTimeout: TimeInterval = 300

    /// The service at `socketPath`, or at ``defaultSocketPath(environment:)``, for the app
    /// `appName` signing in with `requestor`.
    public init(requestor: String, appName: String, socketPath: String? = nil) {
        self.requestor = requestor
        self.appName = appName
        self.socketPath = socketPath ?? Self.defaultSocketPath() ?? "/run/user/\(getuid())/accessenabler/provider.sock"
    }

    /// Where the service of this user session listens: `$XDG_RUNTIME_DIR/accessenabler/provider.sock`,
    /// else under `/run/user/UID` when that directory exists; `nil` when neither does.
    public static func defaultSocketPath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/accessenabler/provider.sock"
        }
        let session = "/run/user/\(getuid())"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: session, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return session + "/accessenabler/provider.sock"
    }

    /// `DeviceProviderService(News, REF30, at /run/user/1000/accessenabler/provider.sock)`.
    public var description: String { "DeviceProviderService(\(appName), \(requestor), at \(socketPath))" }

    // MARK: PartnerFramework

    /// The app's permission, from the service; with `prompt`, the service may ask the
    /// person (through the device's prompt) when nobody has answered yet. A failure to ask
    /// is ``PartnerAccessResult/error(code:message:)`` with a sentence saying what to do.
    public func accessStatus(prompt: Bool) async -> PartnerAccessResult {
        let request = ProviderServiceLine.accessStatus(app: app, prompt: prompt)
        switch await ask(request, waitsForPerson: prompt) {
        case .failure(let failure): return .error(code: failure.code, message: failure.message)
        case .success(let answer):
            if let error = answer.error { return .error(code: error.code, message: error.message) }
            switch answer.fields["accessStatus"] as? String {
            case "granted": return .granted
            case "denied": return .denied
            case "restricted": return .restricted
            case "notDetermined": return .notDetermined
            default:
                let failure = ProviderServiceSocketFailure.badAnswer(path: socketPath, reason: "no valid accessStatus")
                return .error(code: failure.code, message: failure.message)
            }
        }
    }

    /// The household's sign-in, from the service: the provider, when it ends, and the SAML
    /// response to the request's SAML request. With `isInterruptionAllowed` and nobody
    /// signed in, the service starts the household sign-in and waits for the person (at
    /// most ``interactionTimeout``); ``events()`` tells the code to show.
    public func accountMetadata(_ request: PartnerMetadataRequest) async throws(PartnerFrameworkError)
        -> PartnerAccountMetadata
    {
        let wait = request.isInterruptionAllowed ? interactionTimeout : nil
        let line = ProviderServiceLine.accountMetadata(app: app, request: request, waitSeconds: wait)
        switch await ask(line, waitsForPerson: request.isInterruptionAllowed) {
        case .failure(let failure):
            throw .other(code: failure.code, message: failure.message)
        case .success(let answer):
            if let error = answer.error {
                throw PartnerFrameworkError(caseName: error.code) ?? .other(code: error.code, message: error.message)
            }
            return try ProviderServiceLine.metadata(answer.fields, socketPath: socketPath)
        }
    }

    // MARK: Events

    /// What the service tells as it happens — the household signs in or out, a sign-in
    /// starts (with the code to show the person), an app's permission changes — for as long
    /// as the stream is iterated. When the service goes away the stream says so
    /// (``DeviceProviderEvent/connectionLost(_:)``) and connects again, every few seconds,
    /// until it is back.
    public func events() -> AsyncStream<DeviceProviderEvent> {
        ProviderServiceSubscription.stream(socketPath: socketPath, connectTimeout: connectTimeout)
    }

    // MARK: Asking

    private var app: (requestor: String, name: String) { (requestor, appName) }

    private func ask(_ request: (id: String, line: String), waitsForPerson: Bool) async -> Result<
        ProviderServiceLine.Answer, ProviderServiceSocketFailure
    > {
        let timeout = waitsForPerson ? interactionTimeout + answerTimeout : answerTimeout
        switch await ProviderServiceSocket.exchange(
            path: socketPath, line: request.line, connectTimeout: connectTimeout, answerTimeout: timeout)
        {
        case .failure(let failure): return .failure(failure)
        case .success(let bytes):
            guard let answer = ProviderServiceLine.Answer(bytes, expectedID: request.id) else {
                return .failure(.badAnswer(path: socketPath, reason: "not a JSON answer to the request it was asked"))
            }
            return .success(answer)
        }
    }
}
