import Foundation

/// Preauthorization calls that arrived together (`checkPreauthorizedResources` and the
/// Preauthorize API), asked in one series of `decisions/preauthorize` requests: the
/// resources none of the calls' caches answer, each once, in requests of at most the
/// configured limit (5 by default), one after another until one fails. A request Adobe Pass
/// refuses as too many resources is split in halves (``split(refused:)``).
///
/// Pure: the engine's state machine gathers the calls, sends the requests one at a time
/// and records their answers here; then each call is answered from its own
/// ``PreauthorizationLedger``.
struct PreauthorizationRound: Sendable {
    /// How a call wants its answer.
    enum Answer: Sendable {
        /// `preauthorizedResources` (the legacy call).
        case legacy
        /// The Preauthorize API's callback.
        case preauthorizeAPI(AccessEnablerCallback<PreauthorizeResponse>)
    }

    /// One preauthorization call.
    struct Call: Sendable {
        var owner: CallID?
        var answer: Answer
        var ledger: PreauthorizationLedger
    }

    /// The request in flight (or waiting for a configuration refetch).
    struct Request: Sendable, Equatable {
        var ticket: RequestTicket
        var resources: [String]
        var attempt: Int
    }

    let profile: StoredProfile
    /// The validated `AP-Partner-Framework-Status` the requests carry (an `appleSSO` profile).
    let partnerStatus: PartnerFrameworkStatus?
    /// The partner framework's answer the round was judged with, if one was needed.
    let snapshot: PartnerSnapshot?
    private(set) var calls: [Call]
    /// Calls may still join; nothing has been sent.
    private(set) var isGathering = true
    /// The resources still to ask, in requests.
    private(set) var batches: [[String]] = []
    /// The request in flight.
    private(set) var asking: Request?
    /// The request waiting for the configuration refetch.
    private(set) var refetching: Request?
    /// Why the asking stopped early, if it did.
    private(set) var failure: RESTClientError?
    /// The attempt the next request is: 2 for a batch asked again after a configuration refetch.
    private var nextAttempt = 1
    /// The decisions Adobe Pass asked to request again, counted.
    private(set) var retries = DecisionRetries()
    /// Whether the next batch asks again decisions whose error asked for it (it waits first).
    private(set) var nextIsRetry = false

    init(first call: Call, profile: StoredProfile, partnerStatus: PartnerFrameworkStatus?, snapshot: PartnerSnapshot?) {
        calls = [call]
        self.profile = profile
        self.partnerStatus = partnerStatus
        self.snapshot = snapshot
    }

    mutating func join(_ call: Call) {
        calls.append(call)
    }

    /// Ends the gathering: what no call's cache answers, each resource once, in requests of
    /// at most `limit` (one request when `nil`).
    mutating func close(limit: Int?) {
        isGathering = false
        var seen: Set<String> = []
        let missing = calls.flatMap(\.ledger.missing).filter { seen.insert($0).inserted }
        guard !missing.isEmpty else { return }
        guard let limit, limit > 0, missing.count > limit else {
            batches = [missing]
            return
        }
        batches = stride(from: 0, to: missing.count, by: limit).map {
            Array(missing[$0..<min($0 + limit, missing.count)])
        }
    }

    /// The next resources to ask, once nothing is in flight and nothing failed.
    var nextBatch: [String]? { asking == nil && refetching == nil && failure == nil ? batches.first : nil }

    /// Records that the next batch went out as `ticket`.
    mutating func sent(as ticket: RequestTicket) {
        guard let resources = batches.first else { return }
        asking = Request(ticket: ticket, resources: resources, attempt: nextAttempt)
        nextAttempt = 1
        nextIsRetry = false
    }

    /// The request `ticket` answered; `nil` when it is not this round's.
    mutating func answered(_ ticket: RequestTicket) -> Request? {
        guard let request = asking, request.ticket == ticket else { return nil }
        asking = nil
        return request
    }

    /// The decisions of the batch in flight: every call records them, but those whose error
    /// asks to request them again (``DecisionRetries``), which are asked next. Returns the
    /// decisions recorded.
    @discardableResult
    mutating func record(_ decisions: [Decision]) -> [Decision] {
        if !batches.isEmpty { batches.removeFirst() }
        let again = retries.take(decisions)
        let answered = decisions.filter { !again.contains($0.resource) }
        for index in calls.indices { calls[index].ledger.record(answered) }
        if !again.isEmpty {
            batches.insert(again, at: 0)
            nextIsRetry = true
        }
        return answered
    }

    /// Adobe Pass refused `request` with `too_many_resources`: every resource still to ask
    /// (the refused ones first) is asked again in requests of at most half the refused
    /// request's size, rounded up. Each refusal halves the size, so a list is never asked
    /// twice and a round of `n` resources meets at most ⌈log2 n⌉ refusals. Returns the new
    /// size; `nil` when the request held one resource (nothing smaller to ask).
    mutating func split(refused request: Request) -> Int? {
        guard request.resources.count > 1, let refused = batches.first, refused == request.resources else { return nil }
        let limit = (request.resources.count + 1) / 2
        let remaining = batches.flatMap { $0 }
        batches = stride(from: 0, to: remaining.count, by: limit).map { start in
            Array(remaining[start..<min(start + limit, remaining.count)])
        }
        nextAttempt = request.attempt
        return limit
    }

    /// The asking stops: `error` ends it.
    mutating func stop(_ error: RESTClientError) {
        failure = error
    }

    /// `request` waits for the configuration refetch `ticket`.
    mutating func awaitRefetch(_ request: Request, as ticket: RequestTicket) {
        refetching = Request(ticket: ticket, resources: request.resources, attempt: request.attempt)
    }

    /// The configuration refetch `ticket` ended; `false` when it is not this round's. The
    /// batch is asked once more, as the next attempt.
    mutating func configurationRefetched(_ ticket: RequestTicket) -> Bool {
        guard let waiting = refetching, waiting.ticket == ticket else { return false }
        refetching = nil
        nextAttempt = waiting.attempt + 1
        return true
    }

    /// Nothing more will be asked.
    var isComplete: Bool { !isGathering && asking == nil && refetching == nil && (failure != nil || batches.isEmpty) }

    /// Whether `call` lacks answers because the asking stopped.
    func failed(_ call: Call) -> Bool { failure != nil && !call.ledger.missing.isEmpty }

    /// The Preauthorize API's shape of a failed request: a server error (with its status)
    /// is a response; what the SDK could not get at all is a failure.
    static func preauthorizeOutcome(for error: RESTClientError) -> PreauthorizeOutcome {
        switch error {
        case .server(let operation, let httpStatus, let enhanced):
            if operation == .dcrRegister || operation == .dcrToken { return .sdkFailure(.accessTokenUnavailable) }
            guard let enhanced else { return .sdkFailure(.serverResponseFormatUnknown) }
            return .serverError(httpStatus: httpStatus, enhanced)
        case .throttled(_, let retryAfter):
            return .throttled(retryAfter: ThrottleNotice.seconds(retryAfter: retryAfter))
        case .transport:
            return .sdkFailure(.networkError)
        case .malformedBody, .undocumentedStatus:
            return .sdkFailure(.serverResponseFormatUnknown)
        case .invalidDeviceInfo, .invalidRequest:
            return .sdkFailure(.accessTokenUnavailable)
        case .unsendableToken:
            return .sdkFailure(.unsendableSingleSignOnToken)
        }
    }
}
