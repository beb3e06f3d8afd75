import Synchronization

/// The access token made ready at the start of a request's task, before its call chain
/// grows: a device that waits for its registration or its token then waits in a shallow
/// task, not under the frames of the request that needs the token.
///
/// A cold device's first calls start several requests at once, each in a task of its own,
/// and each needs the token. Asked where the request is sent, the token is renewed on top of
/// that request's whole chain (the profiles' merge, the client, the exchange) and every
/// other request waits under its own chain: about 10 KiB of suspended frames per request.
/// Asked first, at the top of the task (``prepare(_:for:)``), the renewal and the
/// waits cost the token's own frames only; the request's chain grows once the token is
/// there, in the memory the renewal used.
///
/// Nothing else changes: the request still asks ``AccessTokenProvider/token(for:)``,
/// which answers from memory. A renewal that failed is not made twice: its error stays with
/// the task (``current``) and is what the first request of that task to the same provider
/// throws, exactly as if the request had renewed itself.
final class PreparedAccessToken: Sendable {
    /// The preparation of the running task, if it made one.
    @TaskLocal static var current: PreparedAccessToken?

    private let provider: AccessTokenProvider
    /// The renewal's failure, until a request of the task takes it.
    private let failure: Mutex<RESTClientError?>

    private init(provider: AccessTokenProvider, failure: RESTClientError?) {
        self.provider = provider
        self.failure = Mutex(failure)
    }

    /// Makes `provider`'s token ready (registering or renewing when needed, or waiting for
    /// the renewal under way), sending the `X-Device-Info` of `context` to DCR if it has to.
    static func prepare(_ provider: AccessTokenProvider, for context: RequestContext) async -> PreparedAccessToken {
        do throws(RESTClientError) {
            _ = try await provider.token(for: context)
            return PreparedAccessToken(provider: provider, failure: nil)
        } catch {
            return PreparedAccessToken(provider: provider, failure: error)
        }
    }

    /// The preparation's failure, if `provider` is the one it prepared and no request of the
    /// task has taken it yet; it is handed out once.
    func takeFailure(of provider: AccessTokenProvider) -> RESTClientError? {
        guard provider === self.provider else { return nil }
        return failure.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }
}
