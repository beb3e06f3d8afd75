import Foundation

/// What the person does on the device-level TV provider sign-in page (`/tv-provider`).
public enum HouseholdPageChoice: Sendable, Equatable {
    /// Chooses the provider with this mapping id and signs in as `username`.
    case provider(String, username: String, password: String)
    /// Chooses "Other TV Provider".
    case other
    /// Cancels.
    case cancel
}

/// How the device-level sign-in page ended.
public enum HouseholdPageOutcome: Sendable, Equatable {
    /// The device is signed in to this provider (mapping id).
    case signedIn(provider: String)
    /// The page ended without a sign-in (cancelled, another provider, or a provider the
    /// platform only lets the person choose); the ending page's headline.
    case ended(String)
}

extension SimulatedUserAgent {
    /// The person signing the device in: opens `/tv-provider`, types `code`, makes `choice`
    /// and, for a provider, logs in. Throws ``SimulatedUserAgentError/activationRejected(_:)``
    /// for a code the page refuses, ``SimulatedUserAgentError/providerNotOffered(_:offered:)``
    /// for a provider the choice does not list, ``SimulatedUserAgentError/loginRejected(_:)``
    /// for wrong credentials.
    @discardableResult
    public func signInHousehold(code: String, choice: HouseholdPageChoice) async throws(SimulatedUserAgentError)
        -> HouseholdPageOutcome
    {
        let start = try resolve(SandboxRoute.householdSignInPath, against: nil)
        var page = try await load(.init(method: "GET", url: start), redirectPrefix: nil)
        var done: Set<SandboxPageKind> = []
        while true {
            let (url, html, kind) = try Self.nextStep(
                of: page, done: done, loginPage: .householdLogin, redirect: "a redirect")
            let forms = HTMLForm.forms(in: html)
            switch kind {
            case .householdCode?:
                guard let form = forms.first(where: { $0.id == "tv-provider-code" }) else {
                    throw .unexpectedPage(url: url.absoluteString)
                }
                page = try await submit(form, on: url, adding: [("code", code)], redirectPrefix: nil)
            case .householdChoice?:
                guard let form = forms.first(where: { $0.id == "tv-provider-choice" }) else {
                    throw .unexpectedPage(url: url.absoluteString)
                }
                let offered = form.buttons.filter { $0.name == "choice" }.map(\.value)
                let value: String
                switch choice {
                case .provider(let id, _, _): value = id
                case .other: value = "other"
                case .cancel: value = "cancel"
                }
                guard offered.contains(value) else { throw .providerNotOffered(value, offered: offered) }
                page = try await submit(form, on: url, adding: [("choice", value)], redirectPrefix: nil)
            case .householdLogin?:
                guard case .provider(_, let username, let password) = choice, let form = HTMLForm(html: html) else {
                    throw .noLoginForm(url: url.absoluteString)
                }
                page = try await submit(
                    form, on: url, adding: [("username", username), ("password", password)], redirectPrefix: nil)
            case .householdSignedIn?:
                guard let marker = html.range(of: "data-provider=\""),
                    let end = html[marker.upperBound...].firstIndex(of: "\"")
                else {
                    throw .unexpectedPage(url: url.absoluteString)
                }
                return .signedIn(provider: SandboxEngine.unescape(String(html[marker.upperBound..<end])))
            case .householdEnded?:
                guard let marker = html.range(of: "id=\"ended\">"),
                    let end = html[marker.upperBound...].range(of: "</h1>")
                else {
                    throw .unexpectedPage(url: url.absoluteString)
                }
                return .ended(SandboxEngine.unescape(String(html[marker.upperBound..<end.lowerBound])))
            default:
                throw .unexpectedPage(url: url.absoluteString)
            }
            if let kind { done.insert(kind) }
        }
    }
}
