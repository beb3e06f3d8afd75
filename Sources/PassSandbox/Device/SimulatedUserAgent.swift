import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why the simulated user agent stopped.
public enum SimulatedUserAgentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The login page showed the form again with this error message.
    case loginRejected(String)
    /// A page answered something a browser could not continue from.
    case unexpectedResponse(status: Int, url: String)
    /// The page at `url` has no login form.
    case noLoginForm(url: String)
    /// More than ten redirects in a row.
    case tooManyRedirects
    /// The request could not be sent (bad URL, connection failure).
    case transport(String)
    /// The activation page (or the TV provider choice) came back with this error message:
    /// an unknown, expired or already used code, or a provider that cannot sign the TV in.
    case activationRejected(String)
    /// The session has no MVPD and no `mvpd` was given; `offered` lists the choice's MVPD ids.
    case providerChoiceRequired(offered: [String])
    /// `mvpd` is not among the MVPDs the choice offers.
    case providerNotOffered(String, offered: [String])
    /// A page refused to go on (status `status`), saying `message`.
    case pageRefused(status: Int, message: String)
    /// The page at `url` is not one the second-screen walk expects at that point.
    case unexpectedPage(url: String)

    /// A sentence for logs and test failures.
    public var description: String {
        switch self {
        case .loginRejected(let message): "The MVPD login page refused the credentials: \(message)"
        case .unexpectedResponse(let status, let url):
            "\(url) answered HTTP \(status), which a browser cannot continue from."
        case .noLoginForm(let url): "\(url) shows no login form."
        case .tooManyRedirects: "More than ten redirects in a row."
        case .transport(let reason): "The request could not be sent: \(reason)"
        case .activationRejected(let message): "The activation page refused the code: \(message)"
        case .providerChoiceRequired(let offered):
            "The session has no TV provider: choose one of \(offered.joined(separator: ", "))."
        case .providerNotOffered(let mvpd, let offered):
            "\(mvpd) is not offered; the choice lists \(offered.joined(separator: ", "))."
        case .pageRefused(let status, let message): "The page refused to go on (HTTP \(status)): \(message)"
        case .unexpectedPage(let url): "\(url) is not a page the second-screen sign-in expects here."
        }
    }
}

/// A web view driving the sandbox's pages, the way an app's web view that watches its
/// navigations does: it asks for HTML as a browser does, follows redirects itself, fills in
/// and submits forms, and stops where the application takes over — a redirect to an address
/// a web view cannot load (a custom scheme such as `adobepass://…`), or one whose `Location`
/// starts with the application's redirect prefix. Nobody taps anything. On the second
/// screen it types a code at `/activate`, chooses the TV provider and logs in
/// (``activate(code:username:password:mvpd:)``).
///
/// In-process it calls ``PassSandbox/respond(to:)`` directly (whatever the URL's host);
/// over HTTP it uses URLSession with automatic redirects turned off.
public struct SimulatedUserAgent: Sendable {
    private enum Wire: Sendable {
        case inProcess(PassSandbox)
        case http(URL)
    }

    private let wire: Wire
    private static let maximumRedirects = 10
    /// What a browser asks for when it navigates; the sandbox's pages answer browsers with
    /// pages where a program would get a redirect it cannot show.
    private static let accept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"

    /// A user agent talking to `sandbox` in-process.
    public init(sandbox: PassSandbox) { wire = .inProcess(sandbox) }

    /// A user agent talking HTTP to the sandbox served at `httpBase`.
    public init(httpBase: URL) { wire = .http(httpBase) }

    /// Opens `url` (absolute, or relative to the sandbox), follows redirects to the MVPD
    /// login form, submits `username`/`password`, and follows redirects until one leads to
    /// `redirectPrefix` or to a custom scheme; returns that URL.
    public func login(startingAt url: String, username: String, password: String, redirectPrefix: String)
        async throws(SimulatedUserAgentError) -> String
    {
        var page = try await load(
            .init(method: "GET", url: try resolve(url, against: nil)), redirectPrefix: redirectPrefix)
        var submitted = false
        while true {
            switch page {
            case .landed(let url): return url
            case .page(let url, let status, let html):
                guard status == 200 else { throw .unexpectedResponse(status: status, url: url.absoluteString) }
                if submitted, let message = Self.errorMessage(in: html) { throw .loginRejected(message) }
                guard !submitted, let form = HTMLForm(html: html) else { throw .noLoginForm(url: url.absoluteString) }
                submitted = true
                page = try await submit(
                    form, on: url, adding: [("username", username), ("password", password)],
                    redirectPrefix: redirectPrefix)
            }
        }
    }

    /// Opens `url` and follows redirects until one leads to `redirectPrefix` or to a custom
    /// scheme (an MVPD logout page in a hidden web view); returns that URL.
    public func follow(_ url: String, redirectPrefix: String) async throws(SimulatedUserAgentError) -> String {
        let page = try await load(
            .init(method: "GET", url: try resolve(url, against: nil)), redirectPrefix: redirectPrefix)
        switch page {
        case .landed(let landing): return landing
        case .page(let url, let status, _): throw .unexpectedResponse(status: status, url: url.absoluteString)
        }
    }

    /// The person on the second screen: opens the sandbox's `/activate`, types `code`,
    /// chooses `mvpd` when the session has no MVPD (ignored otherwise), logs in with
    /// `username`/`password`, and stops on the "signed in, go back to your TV" page.
    /// Returns the MVPD the TV is now signed in with.
    ///
    /// A choice that signs the TV in without a login (an existing profile, TempPass, a
    /// degraded MVPD) ends there, the credentials unused. Throws
    /// ``SimulatedUserAgentError/activationRejected(_:)`` for an unknown, expired or used
    /// code, ``SimulatedUserAgentError/providerChoiceRequired(offered:)`` or
    /// ``SimulatedUserAgentError/providerNotOffered(_:offered:)`` for the choice,
    /// ``SimulatedUserAgentError/loginRejected(_:)`` for wrong credentials, and
    /// ``SimulatedUserAgentError/pageRefused(status:message:)`` when a page refuses.
    @discardableResult
    public func activate(code: String, username: String, password: String, mvpd: String? = nil)
        async throws(SimulatedUserAgentError) -> String
    {
        var page = try await load(
            .init(method: "GET", url: try resolve(SandboxRoute.activatePath, against: nil)), redirectPrefix: nil)
        var done: Set<SandboxPageKind> = []
        while true {
            let (url, html, kind) = try Self.nextStep(
                of: page, done: done, loginPage: .login, redirect: "a redirect into the application")
            let forms = HTMLForm.forms(in: html)
            switch kind {
            case .activate?:
                guard let form = forms.first(where: { $0.id == "activate-form" }) else {
                    throw .unexpectedPage(url: url.absoluteString)
                }
                page = try await submit(form, on: url, adding: [("code", code)], redirectPrefix: nil)
            case .providerChoice?:
                guard let form = forms.first(where: { $0.id == "provider-choice" }) else {
                    throw .unexpectedPage(url: url.absoluteString)
                }
                let offered = form.buttons.filter { $0.name == "mvpd" }.map(\.value)
                guard let mvpd else { throw .providerChoiceRequired(offered: offered) }
                guard offered.contains(mvpd) else { throw .providerNotOffered(mvpd, offered: offered) }
                page = try await submit(form, on: url, adding: [("mvpd", mvpd)], redirectPrefix: nil)
            case .login?:
                guard let form = HTMLForm(html: html) else { throw .noLoginForm(url: url.absoluteString) }
                page = try await submit(
                    form, on: url, adding: [("username", username), ("password", password)], redirectPrefix: nil)
            case .signedIn?:
                guard let marker = html.range(of: "data-mvpd=\""),
                    let end = html[marker.upperBound...].firstIndex(of: "\"")
                else {
                    throw .unexpectedPage(url: url.absoluteString)
                }
                return SandboxEngine.unescape(String(html[marker.upperBound..<end]))
            default:
                throw .unexpectedPage(url: url.absoluteString)
            }
            if let kind { done.insert(kind) }
        }
    }

    // MARK: Navigation

    /// One step of a walk through several pages (the activation page, the household
    /// sign-in): the page's address, HTML and kind, once it is a page (not `redirect`), it
    /// answered 200, and it is not one `done` already — the page coming back means the site
    /// refused what was typed on it (`loginPage`: the credentials, else the code or choice).
    static func nextStep(
        of page: Page, done: Set<SandboxPageKind>, loginPage: SandboxPageKind, redirect: String
    ) throws(SimulatedUserAgentError) -> (url: URL, html: String, kind: SandboxPageKind?) {
        guard case .page(let url, let status, let html) = page else { throw .unexpectedPage(url: redirect) }
        guard status == 200 else {
            throw .pageRefused(
                status: status, message: errorMessage(in: html) ?? "HTTP \(status) from \(url.absoluteString)")
        }
        let kind = SandboxPageKind(html: html)
        if let kind, done.contains(kind) {
            let message = errorMessage(in: html) ?? "\(url.absoluteString) showed the same page again."
            throw kind == loginPage ? .loginRejected(message) : .activationRejected(message)
        }
        return (url, html, kind)
    }

    struct PageRequest {
        var method: String
        var url: URL
        var body: [UInt8] = []
        var contentType: String?
    }

    enum Page {
        /// A redirect into the application.
        case landed(String)
        /// Any other page: where it was loaded from, its status, its HTML.
        case page(URL, Int, String)
    }

    private struct RawResponse {
        var status: Int
        var location: String?
        var body: String
    }

    /// Sends `request` and follows redirects (as GET) until a page, or, when
    /// `redirectPrefix` is given, a landing: a redirect to that prefix or to an address a web
    /// view cannot load (any scheme but `http` and `https`).
    func load(_ request: PageRequest, redirectPrefix: String?) async throws(SimulatedUserAgentError) -> Page {
        var request = request
        for _ in 0...Self.maximumRedirects {
            let response = try await send(request)
            if (300..<400).contains(response.status), let location = response.location {
                if let redirectPrefix, location.hasPrefix(redirectPrefix) || Self.isApplicationAddress(location) {
                    return .landed(location)
                }
                request = PageRequest(method: "GET", url: try resolve(location, against: request.url))
                continue
            }
            return .page(request.url, response.status, response.body)
        }
        throw .tooManyRedirects
    }

    /// Submits `form` as found on the page at `url`: its hidden fields, then `fields`.
    func submit(_ form: HTMLForm, on url: URL, adding fields: [(String, String)], redirectPrefix: String?)
        async throws(SimulatedUserAgentError) -> Page
    {
        let body = (form.hiddenFields + fields).map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(
            separator: "&")
        let action = try resolve(form.action.isEmpty ? url.absoluteString : form.action, against: url)
        return try await load(
            .init(
                method: form.method, url: action, body: Array(body.utf8),
                contentType: "application/x-www-form-urlencoded"), redirectPrefix: redirectPrefix)
    }

    private func send(_ request: PageRequest) async throws(SimulatedUserAgentError) -> RawResponse {
        switch wire {
        case .inProcess(let sandbox):
            let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            let path = components?.percentEncodedPath ?? request.url.path
            var headers: [(name: String, value: String)] = [
                ("User-Agent", "PassSandbox SimulatedUserAgent"), ("Accept", Self.accept),
            ]
            if let type = request.contentType { headers.append(("Content-Type", type)) }
            let response = await sandbox.respond(
                to: SandboxRequest(
                    method: request.method, path: path.isEmpty ? "/" : path,
                    query: components?.percentEncodedQuery.map(SandboxRequest.decodeForm) ?? [],
                    headers: headers, body: request.body))
            if response.dropConnection { throw .transport("The connection was dropped.") }
            return RawResponse(
                status: response.status, location: response.header("Location"),
                body: String(decoding: response.body, as: UTF8.self))
        case .http:
            let response = try await HTTPPageLoader.send(
                method: request.method, url: request.url, body: request.body, contentType: request.contentType,
                accept: Self.accept)
            return RawResponse(status: response.status, location: response.location, body: response.body)
        }
    }

    /// Resolves `text` against the current page, else against the sandbox base.
    func resolve(_ text: String, against current: URL?) throws(SimulatedUserAgentError) -> URL {
        let base: URL
        switch wire {
        case .inProcess(let sandbox): base = current ?? sandbox.baseURLForLinks
        case .http(let httpBase): base = current ?? httpBase
        }
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL else { throw .transport("Not a URL: \(text)") }
        return url
    }

    // MARK: HTML

    /// The text of the login page's error paragraph, if it shows one.
    static func errorMessage(in html: String) -> String? {
        guard let marker = html.range(of: "class=\"error\""),
            let start = html[marker.upperBound...].firstIndex(of: ">"),
            let end = html[start...].range(of: "</p>")
        else { return nil }
        return SandboxEngine.unescape(String(html[html.index(after: start)..<end.lowerBound]))
    }

    /// `true` for an absolute address a web view cannot load itself (a scheme other than
    /// `http` and `https`): a web view hands it to the application.
    static func isApplicationAddress(_ location: String) -> Bool {
        guard let colon = location.firstIndex(of: ":") else { return false }
        let scheme = location[..<colon].lowercased()
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return false }
        return scheme != "http" && scheme != "https"
    }

    private static func formEncode(_ text: String) -> String { SandboxEngine.formEncode(text) }
}
