import Foundation

/// The answers to requests no endpoint serves: an unknown path (`404`) or a method the path
/// does not serve (`405`). Each comes in the error shape of the API the path belongs to, as
/// a client of that API reads its other errors: an enhanced error under `/api/v2`, an OAuth
/// error under `/o/client`, an HTML page for the pages a browser opens (the authenticate
/// URL included: its page lists `text/html` errors).
extension SandboxEngine {
    /// Where a path belongs, for the shape of its errors.
    enum ErrorShape: Equatable {
        /// REST API V2: enhanced error JSON.
        case enhancedError
        /// Dynamic Client Registration and the TempPass reset: `{"error", "error_description"}`.
        case oauth
        /// A page a browser opens (the authenticate URL, the MVPD pages, `/activate`).
        case page
        /// Anything else: plain text.
        case text
    }

    /// The error shape of `path`.
    static func errorShape(forPath path: String) -> ErrorShape {
        if path == "/api/v2/authenticate" || path.hasPrefix("/api/v2/authenticate/") { return .page }
        if path == "/api/v2" || path.hasPrefix("/api/v2/") { return .enhancedError }
        if path == "/o/client" || path.hasPrefix("/o/client/") { return .oauth }
        if path == "/reset-tempass" || path.hasPrefix("/reset-tempass/") { return .oauth }
        if SandboxRoute(method: "GET", path: path) != nil { return .page }
        return .text
    }

    /// `404 Not Found` for a path no endpoint serves, in the path's error shape.
    static func notFound(path: String) -> SandboxResponse {
        let explanation = "Nothing is served at \(path); check the path against the API reference."
        switch errorShape(forPath: path) {
        case .enhancedError: return SandboxEnhancedError.resourceNotFound.with(details: explanation).response
        case .oauth: return oauthError("invalid_request", status: 404, description: explanation)
        case .page:
            return notServedPage(title: "Page not found", message: "There is no page at this address.", status: 404)
        case .text: return .text("Not Found", status: 404)
        }
    }

    /// `405 Method Not Allowed` with an `Allow` listing every method the path serves.
    static func methodNotAllowed(method: String, path: String) -> SandboxResponse {
        let allowed = SandboxRoute.allowedMethods(forPath: path)
        let allow: (name: String, value: String) = ("Allow", allowed.joined(separator: ", "))
        let choices =
            allowed.count > 1
            ? allowed.dropLast().joined(separator: ", ") + " or " + allowed[allowed.count - 1] : allowed.joined()
        let explanation = "\(method) is not served on \(path); use \(choices)."
        var response: SandboxResponse
        switch errorShape(forPath: path) {
        case .enhancedError: response = SandboxEnhancedError.methodNotAllowed.with(details: explanation).response
        case .oauth: response = oauthError("invalid_request", status: 405, description: explanation)
        case .page:
            response = notServedPage(title: "This page cannot be opened this way", message: explanation, status: 405)
        case .text: response = .text("Method Not Allowed", status: 405)
        }
        response.headers.append(allow)
        return response
    }

    /// A page saying a request reached nothing: a wrong address, or a wrong method.
    private static func notServedPage(title: String, message: String, status: Int) -> SandboxResponse {
        .html(
            PageStyle.document(
                title: title, kind: .error, tone: "failed",
                content: """
                    <h1>\(escape(title))</h1>
                    <p class="error">\(escape(message))</p>
                    <p>Start again from the application.</p>
                    """), status: status)
    }
}
