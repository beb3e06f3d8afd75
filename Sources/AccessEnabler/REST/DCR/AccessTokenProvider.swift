import Foundation

/// Hands out the DCR access token for the `Authorization` header.
///
/// - Registers the software statement once; the client credentials are kept in the cache
///   for good (a new provider over the same cache reuses them).
/// - Reuses the access token until shortly before it expires (``expirySkew``), from memory
///   or from the cache.
/// - Renews at most once at a time: concurrent callers share one in-flight renewal, made
///   in the task of the first of them.
/// - ``invalidate(rejectedToken:)`` drops a token the server refused (after a 401), so the
///   next call renews it.
/// - Registers again only when the token endpoint says the client itself is unknown
///   (``ServerAdvice/clientUnknown``: `invalid_client`).
actor AccessTokenProvider {
    /// How long before its expiry a token is considered stale, so a request never leaves
    /// with a token that expires on the way.
    static let expirySkew: TimeInterval = 30

    private let dcr: DCRClient
    private let softwareStatement: String
    private let redirectURI: String?
    private let cache: any ClientCredentialsCache
    private let timeSource: any TimeSource

    private var credentials: DCRClientCredentials?
    private var accessToken: DCRAccessToken?
    private var loadedFromCache = false
    /// Whether a caller is renewing now.
    private var renewing = false
    /// The callers waiting for the renewal under way.
    private var waiting: [CheckedContinuation<Renewal, Never>] = []
    /// How many callers wait for the renewal under way (a test waits for one to).
    var waitingCallers: Int { waiting.count }

    /// The outcome of one renewal: the credentials in force afterwards (kept even when the
    /// token request failed after a successful registration) and the token or the error.
    /// A class, so the frames that wait for it hold one reference, not the credentials and
    /// the token inline.
    private final class Renewal: Sendable {
        let credentials: DCRClientCredentials?
        let token: Result<DCRAccessToken, RESTClientError>

        init(credentials: DCRClientCredentials?, token: Result<DCRAccessToken, RESTClientError>) {
            self.credentials = credentials
            self.token = token
        }
    }

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - redirectURI: the optional `redirect_uri` of the registration.
    init(
        dcr: DCRClient, softwareStatement: String, cache: any ClientCredentialsCache, timeSource: any TimeSource,
        redirectURI: String? = nil
    ) {
        self.dcr = dcr
        self.softwareStatement = softwareStatement
        self.cache = cache
        self.timeSource = timeSource
        self.redirectURI = redirectURI
    }

    /// A valid access token, registering and/or renewing when needed.
    ///
    /// The first caller that finds no fresh token renews in its own task; callers that come
    /// meanwhile wait for that renewal's outcome instead of starting another. A waiting
    /// device thus keeps the frames of one task, not two. Should the renewing caller be
    /// cancelled (its call was replaced or its AccessEnabler released), a caller that was
    /// waiting and is not cancelled renews in turn rather than inherit a cancellation that
    /// was not its own.
    ///
    /// - Parameter context: the calling request's context: its `X-Device-Info` is what DCR
    ///   is sent should this caller renew (the Linux machine's own when there is none). The
    ///   provider keeps no device information of its own.
    func token(for context: RequestContext? = nil) async throws(RESTClientError) -> String {
        loadCacheOnce()
        while true {
            if let accessToken, isFresh(accessToken) {
                return accessToken.value
            }
            let outcome: Renewal
            if renewing {
                outcome = await withCheckedContinuation { waiting.append($0) }
                if Self.wasCancelled(outcome), !Task.isCancelled { continue }
            } else {
                outcome = await renewHere(for: context)
            }
            switch outcome.token {
            case .success(let token):
                return token.value
            case .failure(let error):
                throw error
            }
        }
    }

    /// Renews in the calling task, then hands the outcome to every caller that waited. Not
    /// inlined: its frame (and the renewal's) is on the renewing caller's stack only, not on
    /// every waiting caller's.
    @inline(never)
    private func renewHere(for context: RequestContext?) async -> Renewal {
        renewing = true
        let outcome = await Self.renew(
            known: credentials, dcr: dcr, cache: cache, softwareStatement: softwareStatement,
            redirectURI: redirectURI, deviceInfo: context?.deviceInfo ?? .linuxMachine)
        renewing = false
        credentials = outcome.credentials
        if case .success(let token) = outcome.token { accessToken = token }
        let waiters = waiting
        waiting = []
        for waiter in waiters { waiter.resume(returning: outcome) }
        return outcome
    }

    /// Whether `outcome` ended because the renewing task was cancelled.
    private static func wasCancelled(_ outcome: Renewal) -> Bool {
        if case .failure(.transport(_, .cancelled)) = outcome.token { return true }
        return false
    }

    /// Forgets the current access token; the next ``token(for:)`` renews it.
    func invalidate() {
        loadCacheOnce()
        accessToken = nil
    }

    /// Forgets `rejectedToken` if it is still the current one (a token renewed meanwhile
    /// by another caller is kept). The client credentials stay: the renewal's token request
    /// tells whether the client itself is still known.
    func invalidate(rejectedToken: String) {
        loadCacheOnce()
        guard accessToken == nil || accessToken?.value == rejectedToken else { return }
        accessToken = nil
    }

    private func isFresh(_ token: DCRAccessToken) -> Bool {
        timeSource.now < token.expiresAt.addingTimeInterval(-Self.expirySkew)
    }

    private func loadCacheOnce() {
        guard !loadedFromCache else { return }
        loadedFromCache = true
        credentials = cache.loadClientCredentials()
        accessToken = cache.loadAccessToken()
    }

    /// Registers when there are no credentials, then asks for a token. Credentials that the
    /// token endpoint refuses as `invalid_client` are replaced by a new registration once.
    @inline(never)
    private static func renew(
        known: DCRClientCredentials?, dcr: DCRClient, cache: any ClientCredentialsCache, softwareStatement: String,
        redirectURI: String?, deviceInfo: DeviceInfo
    ) async -> Renewal {
        var credentials = known
        do throws(RESTClientError) {
            var registeredNow = false
            if credentials == nil {
                let registered = try await dcr.register(
                    softwareStatement: softwareStatement, redirectURI: redirectURI, deviceInfo: deviceInfo)
                cache.saveClientCredentials(registered)
                credentials = registered
                registeredNow = true
            }
            guard let current = credentials else {
                throw .invalidRequest(operation: .dcrRegister, reason: "no client credentials")
            }
            let token: DCRAccessToken
            do throws(RESTClientError) {
                token = try await dcr.accessToken(credentials: current, deviceInfo: deviceInfo)
            } catch {
                guard !registeredNow, error.advice == .clientUnknown else { throw error }
                let registered = try await dcr.register(
                    softwareStatement: softwareStatement, redirectURI: redirectURI, deviceInfo: deviceInfo)
                cache.saveClientCredentials(registered)
                credentials = registered
                token = try await dcr.accessToken(credentials: registered, deviceInfo: deviceInfo)
            }
            cache.saveAccessToken(token)
            return Renewal(credentials: credentials, token: .success(token))
        } catch {
            return Renewal(credentials: credentials, token: .failure(error))
        }
    }
}
