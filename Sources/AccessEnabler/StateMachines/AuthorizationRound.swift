import Foundation

/// Authorization calls that arrived together (an app decorating a grid calls
/// checkAuthorization for every tile), asked in as few `decisions/authorize` requests as
/// the server's limit allows, each call still answered on its own, in call order.
///
/// Pure: the engine's state machine gathers calls while more arrive — a request of `limit`
/// resources leaves as soon as it is full, the rest once no event has arrived for the
/// quiet window (``quietWindow``) — and records the answers here; once every request has
/// answered it renders each call's callbacks from its resource's outcome.
struct AuthorizationRound: Sendable {
    /// One authorization call: its resource and the call it ends.
    struct Call: Sendable, Equatable {
        var resource: String
        var owner: CallID?
    }

    /// What Adobe Pass said about one resource.
    enum Outcome: Sendable {
        /// The resource's decision.
        case decision(Decision)
        /// The request that carried the resource failed as a whole.
        case failure(RESTClientError)
        /// The answer had no decision for the resource.
        case missing
    }

    /// One decisions request: its resources and which attempt it is (a second one follows
    /// a configuration refetch).
    struct Request: Sendable, Equatable {
        var resources: [String]
        var attempt: Int
    }

    /// How long a round whose mailbox went empty still waits for more calls before its
    /// last request leaves, restarted by every event: 1 ms. Long enough for an app's calls
    /// made in one go to join one round however the threads are scheduled (the engine can
    /// find its mailbox empty between two of them on a second core), short against any
    /// round trip. A full request never waits for it.
    static let quietWindow: Duration = .milliseconds(1)

    /// The profile the decisions are asked for (its MVPD, its service provider).
    let profile: StoredProfile
    /// The validated `AP-Partner-Framework-Status` the requests carry (an `appleSSO` profile).
    let partnerStatus: PartnerFrameworkStatus?
    /// The partner framework's answer the round was judged with, if one was needed: a call
    /// that joins is judged with it too.
    let snapshot: PartnerSnapshot?
    /// The calls, in call order.
    private(set) var calls: [Call]
    /// Calls may still join; only full requests have been sent.
    private(set) var isGathering = true
    /// The resources asked for so far or waiting to be, each once.
    private var seen: Set<String> = []
    /// The resources gathered and not yet sent, in call order.
    private var unsent: [String] = []
    /// Requests in flight, by ticket.
    private(set) var asking: [RequestTicket: Request] = [:]
    /// Requests waiting for a configuration refetch, by the refetch's ticket.
    private(set) var refetching: [RequestTicket: Request] = [:]
    /// The outcome of each resource answered so far.
    private(set) var outcomes: [String: Outcome] = [:]
    /// The decisions Adobe Pass asked to request again, counted.
    private(set) var retries = DecisionRetries()

    init(first call: Call, profile: StoredProfile, partnerStatus: PartnerFrameworkStatus?, snapshot: PartnerSnapshot?) {
        calls = []
        self.profile = profile
        self.partnerStatus = partnerStatus
        self.snapshot = snapshot
        join(call)
    }

    /// Adds a call that arrived while the round is gathering.
    mutating func join(_ call: Call) {
        calls.append(call)
        if seen.insert(call.resource).inserted { unsent.append(call.resource) }
    }

    /// The requests already full: `limit` resources each, taken from the gathered ones in
    /// call order; the round goes on gathering.
    mutating func takeFullRequests(limit: Int) -> [[String]] {
        let size = max(1, limit)
        var full: [[String]] = []
        while unsent.count >= size {
            full.append(Array(unsent.prefix(size)))
            unsent.removeFirst(size)
        }
        return full
    }

    /// Ends the gathering: the resources not yet sent (each once, in call order) in
    /// requests of at most `limit`.
    mutating func close(limit: Int) -> [[String]] {
        isGathering = false
        let size = max(1, limit)
        defer { unsent = [] }
        return stride(from: 0, to: unsent.count, by: size).map { Array(unsent[$0..<min($0 + size, unsent.count)]) }
    }

    /// Records that `request` went out as `ticket`.
    mutating func sent(_ request: Request, as ticket: RequestTicket) {
        asking[ticket] = request
    }

    /// The request `ticket` answered; `nil` when it is not one of this round's.
    mutating func answered(_ ticket: RequestTicket) -> Request? {
        asking.removeValue(forKey: ticket)
    }

    /// Records the decisions of `request`: each resource's own, or `missing`. A request for
    /// one resource whose answer names another takes the only decision there is.
    mutating func record(_ decisions: [Decision], for request: Request) {
        for resource in request.resources {
            if let decision = decisions.first(where: { $0.resource == resource })
                ?? (request.resources.count == 1 ? decisions.first : nil)
            {
                outcomes[resource] = .decision(decision)
            } else {
                outcomes[resource] = .missing
            }
        }
    }

    /// Records the decisions of `request` but those whose error asks to request them again
    /// (``DecisionRetries``): returns those resources, to send again.
    mutating func recordAnswer(_ decisions: [Decision], for request: Request) -> [String] {
        let again = retries.take(decisions)
        let answered = Request(resources: request.resources.filter { !again.contains($0) }, attempt: request.attempt)
        record(decisions.filter { !again.contains($0.resource) }, for: answered)
        return again
    }

    /// Records that `request` failed as a whole.
    mutating func record(_ error: RESTClientError, for request: Request) {
        for resource in request.resources { outcomes[resource] = .failure(error) }
    }

    /// `request` waits for the configuration refetch `ticket`.
    mutating func awaitRefetch(_ request: Request, as ticket: RequestTicket) {
        refetching[ticket] = Request(resources: request.resources, attempt: request.attempt + 1)
    }

    /// The configuration refetch `ticket` ended; `false` when it is not one of this round's.
    mutating func configurationRefetched(_ ticket: RequestTicket) -> Bool {
        refetching[ticket] != nil
    }

    /// The request that waited for the refetch `ticket`, to send again.
    mutating func takeRefetched(_ ticket: RequestTicket) -> Request? {
        refetching.removeValue(forKey: ticket)
    }

    /// Every request has answered: each call can be told.
    var isComplete: Bool { !isGathering && asking.isEmpty && refetching.isEmpty }
}
