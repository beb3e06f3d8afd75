import Foundation

// The spellings Adobe's iOS/tvOS documentation uses where they differ from this package's,
// so code written against the legacy SDK compiles unchanged. Each forwards to the call it
// stands for; none adds behaviour.
extension AccessEnabler {
    /// Creates an AccessEnabler for production, iOS flavour: `AccessEnabler(softwareStatement)`,
    /// the spelling Swift gives the Objective-C `init:` (v3.0+), as Adobe's samples write it.
    /// The same as ``init(softwareStatement:)``.
    public convenience init(_ softwareStatement: String) {
        self.init(softwareStatement: softwareStatement)
    }

    /// Creates an AccessEnabler whose storage is checked as `storageCheck` says, with the
    /// default configuration: the Objective-C `initWithStorageCheck:softwareStatement:`
    /// (v3.8.3+).
    public convenience init(storageCheck: IntegrityCheckType, softwareStatement: String) {
        self.init(
            storageCheck: storageCheck, softwareStatement: softwareStatement,
            configuration: AccessEnablerConfiguration())
    }

    /// The argument-less initialiser of SDKs before v3.0 cannot work: since v3.0 the
    /// application identifies itself with a software statement.
    @available(
        *, unavailable,
        message:
            "Since v3.0 an AccessEnabler needs the software statement issued for your application: AccessEnabler(softwareStatement) or AccessEnabler(softwareStatement: statement, configuration: configuration)."
    )
    public convenience init() {
        fatalError("unavailable")
    }

    /// Starts authentication with the v2.4 picker filter dictionary, unlabelled as Swift
    /// imports `getAuthentication:(NSDictionary *)filter`: ``TV_PROVIDERS`` (the MVPD ids the
    /// system picker shows, in order) and ``FEATURED_TV_PROVIDERS``. Entries that are not
    /// strings are left out; `nil` is a plain `getAuthentication()`.
    public func getAuthentication(_ filter: [AnyHashable: Any]!) {
        guard let filter else { return getAuthentication() }
        getAuthentication(filter: [
            TV_PROVIDERS: LegacyValues.strings(filter[TV_PROVIDERS]),
            FEATURED_TV_PROVIDERS: LegacyValues.strings(filter[FEATURED_TV_PROVIDERS]),
        ])
    }

    /// Starts authentication with the v2.0 picker filter list (the MVPD ids the system
    /// picker shows, in order), unlabelled as Swift imports `getAuthentication:(NSArray *)filter`.
    /// Entries that are not strings are left out; `nil` is a plain `getAuthentication()`.
    public func getAuthentication(_ filter: [Any]!) {
        guard let filter else { return getAuthentication() }
        getAuthentication(filter: LegacyValues.strings(filter))
    }

    /// Completes a login or logout with the URL the web view was redirected to, as an
    /// optional: the documentation's `handleExternalURL(request.url?.description)`.
    ///
    /// `nil` (the web view had no URL) is answered like a URL that is not under the redirect
    /// URL: status `N500` and `setAuthenticationStatus` reporting the current state, with
    /// nothing changed.
    public func handleExternalURL(_ url: String?) {
        // An empty string is never under the redirect URL, so the engine answers it exactly
        // as it answers a foreign URL.
        handleExternalURL(url ?? "")
    }

    /// Replaced by ``handleExternalURL(_:)-(String)`` in v3.0: the SDK needs the URL the web
    /// view was redirected to.
    @available(
        *, unavailable, renamed: "handleExternalURL(_:)",
        message: "Since v3.0 pass the URL the web view was redirected to: handleExternalURL(url)."
    )
    public func getAuthenticationToken() {}

    /// Sets the requestor, as SDKs before v3.0 did with a signed requestor id. The
    /// application now identifies itself with its software statement (Dynamic Client
    /// Registration), so the signature is not needed and not sent.
    public func setRequestor(_ requestorID: String, setSignedRequestorId signedRequestorID: String) {
        setRequestor(requestorID)
    }

    /// As ``setRequestor(_:setSignedRequestorId:)``, with service provider URLs.
    public func setRequestor(
        _ requestorID: String, setSignedRequestorId signedRequestorID: String, serviceProviders: [String]
    ) {
        setRequestor(requestorID, serviceProviders: serviceProviders)
    }

    /// The tvOS form of SDKs before v3.0: the secret and public key signed second-screen
    /// calls, which Dynamic Client Registration replaces; they are not needed and not sent.
    public func setRequestor(
        _ requestorID: String, setSignedRequestorId signedRequestorID: String, secret: String, publicKey: String
    ) {
        setRequestor(requestorID)
    }

    /// As ``setRequestor(_:setSignedRequestorId:secret:publicKey:)``, with service provider URLs.
    public func setRequestor(
        _ requestorID: String, setSignedRequestorId signedRequestorID: String, serviceProviders: [String],
        secret: String, publicKey: String
    ) {
        setRequestor(requestorID, serviceProviders: serviceProviders)
    }

    /// The SDK's version, for example `"1.0.0"` (semantic versioning).
    public static func getVersion() -> String {
        SDKVersion.current
    }

    /// The SDK's version; the same as the static `AccessEnabler.getVersion()`.
    public func getVersion() -> String {
        SDKVersion.current
    }
}
