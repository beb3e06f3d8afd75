import Foundation
import Testing

@testable import AccessEnabler

/// The public types of the legacy Preauthorize API (v3.6): the builder, the response and
/// its three shapes, and the callback.
@Suite struct PreauthorizeTypesTests {
    /// What a callback received, by closure.
    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [(closure: String, response: PreauthorizeResponse)] = []
        func append(_ closure: String, _ response: PreauthorizeResponse) {
            lock.withLock { received.append((closure, response)) }
        }
        var closures: [String] { lock.withLock { received.map(\.closure) } }
        var responses: [PreauthorizeResponse] { lock.withLock { received.map(\.response) } }
    }

    @Test func theDocumentationSampleCompilesAsWritten() {
        let outcomes = Outcomes()
        // From the legacy Preauthorize page, with the TODO bodies recording what arrives.
        let resources: [String] = ["resource_1", "resource_2", "resource_3"];
        let disabledFeatures: Set<PreauthorizationRequest.Feature> = [PreauthorizationRequest.Feature.LOCAL_CACHE];
        let request: PreauthorizationRequest = PreauthorizationRequest.Builder()
            .setResources(resources: resources)
            .disableFeatures(features: disabledFeatures)
            .build()
            ;
        func onResponseCallback(result: PreauthorizeResponse) { outcomes.append("onResponse", result) };
        func onFailureCallback(result: PreauthorizeResponse) { outcomes.append("onFailure", result) };
        let callback: AccessEnablerCallback<PreauthorizeResponse> = AccessEnablerCallback<PreauthorizeResponse>(
            onResponse: onResponseCallback, onFailure: onFailureCallback)
            ;

        #expect(request.resources == ["resource_1", "resource_2", "resource_3"])
        #expect(request.disabledFeatures == [.LOCAL_CACHE])
        #expect(!request.isEnabled(.LOCAL_CACHE) && request.isEnabled(.REMOTE_CACHE))
        PreauthorizeOutcome.sdkFailure(.networkError).deliver(to: callback)
        PreauthorizeOutcome.decisions([]).deliver(to: callback)
        #expect(outcomes.closures == ["onFailure", "onResponse"])
    }

    @Test func theBuilderChainsOnItselfAndBuildsANewRequestEachTime() {
        let builder = PreauthorizeRequest.Builder()
        #expect(
            builder.build() == PreauthorizeRequest(resources: [], disabledFeatures: []), "every feature on by default")
        #expect(builder.setResources(resources: ["a"]) === builder)
        #expect(builder.disableFeatures(features: [.REMOTE_CACHE]) === builder)
        let first = builder.build()
        let second = builder.build()
        #expect(first == second)
        #expect(first == PreauthorizeRequest(resources: ["a"], disabledFeatures: [.REMOTE_CACHE]))

        // Java-style use without the result still sets, and replaces, what was set.
        builder.setResources(resources: ["b", "c"])
        builder.disableFeatures(features: [.LOCAL_CACHE, .REMOTE_CACHE])
        #expect(
            builder.build()
                == PreauthorizeRequest(resources: ["b", "c"], disabledFeatures: [.LOCAL_CACHE, .REMOTE_CACHE]))
        #expect(first.resources == ["a"], "a request built earlier does not change")
    }

    @Test func featuresAreSpelledAsTheLegacyEnumeration() {
        #expect(PreauthorizeRequest.Feature.allCases.map(\.rawValue) == ["LOCAL_CACHE", "REMOTE_CACHE"])
    }

    @Test func decisionsBecomeASuccessfulResponseWithPerResourceErrors() throws {
        let denied = EnhancedError(
            status: 403, code: "authorization_denied_by_mvpd", message: "User not authorized",
            details: "Your subscription package does not include the \"TestStream3\" channel.",
            helpUrl: "https://example.com/help", trace: "0453f8c8-167a-4429-8784-cd32cfeaee58", action: "none")
        let outcome = PreauthorizeOutcome.decisions([
            .init(resource: "resource1", authorized: true),
            .init(resource: "resource2", authorized: false, error: denied),
            .init(resource: "resource3", authorized: false),
        ])
        let response = outcome.response
        #expect(!outcome.isFailure)
        #expect(response.getStatus() == nil)
        #expect(response.getDecisions().map { $0.getId() } == ["resource1", "resource2", "resource3"])
        #expect(response.decisions.map { $0.isAuthorized() } == [true, false, false])
        try #require(response.decisions.count == 3)
        #expect(response.decisions[0].getError() == nil)
        #expect(response.decisions[2].getError() == nil, "a deny without enhanced error reporting has no reason")
        let reason: PreauthorizeResponse.Status = try #require(response.decisions[1].getError())
        #expect(reason.getStatus() == 403)
        #expect(reason.getCode() == "authorization_denied_by_mvpd")
        #expect(reason.getMessage() == "User not authorized")
        #expect(reason.getDetails() == denied.details)
        #expect(reason.getHelpUrl() == "https://example.com/help")
        #expect(reason.getTrace() == "0453f8c8-167a-4429-8784-cd32cfeaee58")
        #expect(reason.getAction() == "none")
    }

    @Test func aRESTDecisionKeepsItsResourceVerdictAndReason() {
        let error = EnhancedError(status: 403, code: "authorization_denied_by_mvpd")
        let decision = PreauthorizeOutcome.ResourceDecision(
            Decision(resource: "sports", source: .mvpd, authorized: false, error: error))
        #expect(decision == PreauthorizeOutcome.ResourceDecision(resource: "sports", authorized: false, error: error))
    }

    @Test func aServerErrorBecomesAnErrorResponseWithoutDecisions() {
        let error = EnhancedError(
            code: "bad_request", message: "Missing required parameter : deviceId", details: "", trace: "9f115e1c",
            action: "none")
        let outcome = PreauthorizeOutcome.serverError(httpStatus: 400, error)
        #expect(!outcome.isFailure, "an Adobe Pass error is a response, not a failure")
        #expect(
            outcome.response
                == PreauthorizeResponse(
                    status: PreauthorizeStatus(
                        status: 400, code: "bad_request", message: "Missing required parameter : deviceId", details: "",
                        trace: "9f115e1c", action: "none"),
                    decisions: []))
        // An error that names its own status keeps it.
        let own = PreauthorizeOutcome.serverError(
            httpStatus: 500, EnhancedError(status: 503, code: "service_unavailable")
        ).response
        #expect(own.status?.status == 503)
    }

    @Test(arguments: PreauthorizeFailure.allCases)
    func anSDKFailureBecomesAFailureWithStatusZero(failure: PreauthorizeFailure) throws {
        let outcome = PreauthorizeOutcome.sdkFailure(failure)
        #expect(outcome.isFailure)
        let status = try #require(outcome.response.status)
        #expect(outcome.response.decisions.isEmpty)
        #expect(status.status == 0)
        #expect(status.code == failure.rawValue)
        #expect(status.message?.isEmpty == false)
        #expect(status.details == nil && status.helpUrl == nil && status.trace == nil)
    }

    @Test func sdkFailuresCarryTheDocumentedCodesAndActions() {
        let table = Dictionary(uniqueKeysWithValues: PreauthorizeFailure.allCases.map { ($0.code, $0.action) })
        #expect(
            table == [
                "requestor_not_configured": "retry",
                "authentication_session_expired": "authentication",
                "authentication_session_missing": "authentication",
                "access_token_unavailable": "none",
                "server_response_format_unknown": "none",
                "network_error": "none",
                // This SDK's own: a token the app gave that no header can carry.
                "invalid_single_sign_on_token": "none",
                // This SDK's own: the app released the AccessEnabler before the answer.
                "access_enabler_released": "none",
            ])
    }

    @Test func aCallbackCanBeCalledFromAnyThread() async {
        let outcomes = Outcomes()
        let callback = AccessEnablerCallback<PreauthorizeResponse>(
            onResponse: { outcomes.append("onResponse", $0) },
            onFailure: { outcomes.append("onFailure", $0) })
        let queue = DispatchQueue(label: "preauthorize.test", attributes: .concurrent)
        let group = DispatchGroup()
        for index in 0..<50 {
            queue.async(group: group) {
                let response = PreauthorizeResponse(decisions: [PreauthorizeDecision(id: "r\(index)", authorized: true)]
                )
                index.isMultiple(of: 2) ? callback.onResponse(result: response) : callback.onFailure(result: response)
            }
        }
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        #expect(outcomes.closures.filter { $0 == "onResponse" }.count == 25)
        #expect(outcomes.closures.filter { $0 == "onFailure" }.count == 25)
        #expect(Set(outcomes.responses.flatMap { $0.decisions.map(\.id) }).count == 50)
    }
}
