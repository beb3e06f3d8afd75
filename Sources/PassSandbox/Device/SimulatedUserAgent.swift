import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why the simulated user agent stopped.
public enum SimulatedUserAgentError: Error, Sendable, Equatable {
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
}

/// A browser driving the sandbox's user-agent pages: follows redirects itself, fills in
/// and submits the MVPD login form, and stops at the first redirect into the application
/// (a `Location` starting with the redirect prefix).
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

    /// A user agent talking to `sandbox` in-process.
    public init(sandbox: PassSandbox) { wire = .inProcess(sandbox) }

    /// A user agent talking HTTP to the sandbox served at `httpBase`.
    public init(httpBase: URL) { wire = .http(httpBase) }

    /// Opens `url` (absolute, or relative to the sandbox), follows redirects to the MVPD
    /// login form, submits `username`/`password`, and follows redirects until one leads to
    /// `redirectPrefix`; returns that URL.
    public func login(startingAt url: String, username: String, password: String, redirectPrefix: String) async throws(SimulatedUserAgentError) -> String {
        var page = try await load(.init(method: "GET", url: try resolve(url, against: nil)), redirectPrefix: redirectPrefix)
        var submitted = false
        while true {
            switch page {
            case .landed(let url): return url
            case .page(let url, let html):
                if submitted, let message = Self.errorMessage(in: html) { throw .loginRejected(message) }
                guard !submitted, let form = HTMLForm(html: html) else { throw .noLoginForm(url: url.absoluteString) }
                var fields = form.hiddenFields
                fields.append(("username", username))
                fields.append(("password", password))
                let body = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
                let action = try resolve(form.action.isEmpty ? url.absoluteString : form.action, against: url)
                submitted = true
                page = try await load(.init(method: form.method, url: action, body: Array(body.utf8), contentType: "application/x-www-form-urlencoded"), redirectPrefix: redirectPrefix)
            }
        }
    }

    /// Opens `url` and follows redirects until one leads to `redirectPrefix` (an MVPD
    /// logout page); returns that URL.
    public func follow(_ url: String, redirectPrefix: String) async throws(SimulatedUserAgentError) -> String {
        let page = try await load(.init(method: "GET", url: try resolve(url, against: nil)), redirectPrefix: redirectPrefix)
        switch page {
        case .landed(let landing): return landing
        case .page(let url, _): throw .unexpectedResponse(status: 200, url: url.absoluteString)
        }
    }

    // MARK: Navigation

    private struct PageRequest {
        var method: String
        var url: URL
        var body: [UInt8] = []
        var contentType: String?
    }

    private enum Page {
        /// A redirect into the application.
        case landed(String)
        /// An HTML page that is not a redirect.
        case page(URL, String)
    }

    private struct RawResponse {
        var status: Int
        var location: String?
        var body: String
    }

    /// Sends `request` and follows redirects (as GET) until a page or a landing.
    private func load(_ request: PageRequest, redirectPrefix: String) async throws(SimulatedUserAgentError) -> Page {
        var request = request
        for _ in 0...Self.maximumRedirects {
            let response = try await send(request)
            if (300..<400).contains(response.status), let location = response.location {
                if location.hasPrefix(redirectPrefix) { return .landed(location) }
                request = PageRequest(method: "GET", url: try resolve(location, against: request.url))
                continue
            }
            guard response.status == 200 else { throw .unexpectedResponse(status: response.status, url: request.url.absoluteString) }
            return .page(request.url, response.body)
        }
        throw .tooManyRedirects
    }

    private func send(_ request: PageRequest) async throws(SimulatedUserAgentError) -> RawResponse {
        switch wire {
        case .inProcess(let sandbox):
            let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            let path = components?.percentEncodedPath ?? request.url.path
            var headers: [(name: String, value: String)] = [("User-Agent", "PassSandbox SimulatedUserAgent")]
            if let type = request.contentType { headers.append(("Content-Type", type)) }
            let response = await sandbox.respond(to: SandboxRequest(
                method: request.method, path: path.isEmpty ? "/" : path,
                query: components?.percentEncodedQuery.map(SandboxRequest.decodeForm) ?? [],
                headers: headers, body: request.body))
            if response.dropConnection { throw .transport("The connection was dropped.") }
            return RawResponse(status: response.status, location: response.header("Location"), body: String(decoding: response.body, as: UTF8.self))
        case .http:
            let response = try await HTTPPageLoader.send(method: request.method, url: request.url, body: request.body, contentType: request.contentType)
            return RawResponse(status: response.status, location: response.location, body: response.body)
        }
    }

    /// Resolves `text` against the current page, else against the sandbox base.
    private func resolve(_ text: String, against current: URL?) throws(SimulatedUserAgentError) -> URL {
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

    private static func formEncode(_ text: String) -> String { SandboxEngine.formEncode(text) }
}
