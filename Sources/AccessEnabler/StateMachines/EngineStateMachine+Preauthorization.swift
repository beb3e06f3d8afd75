import Foundation

extension EngineStateMachine {
    /// `checkPreauthorizedResources` and the Preauthorize API: cached decisions answer
    /// repeated questions with no round trip unless the cache is off; both project from
    /// the same ledger.
    mutating func preauthorization(_ work: VerdictWork, _ step: inout Step) {
        if let problem = requestorProblem {
            switch work {
            case .checkPreauthorizedResources(_, _, let call):
                step.deliver(.status(problem), to: call)
                step.deliver(.preauthorizedResources([]), to: call)
            case .preauthorize(_, let callback, let call):
                step.deliver(.preauthorizeResult(.sdkFailure(.requestorNotConfigured), callback), to: call)
            default:
                break
            }
            return
        }
        withVerdict(work, &step)
    }

    /// A ledger for `resources`, with the cached answers when `useCache`.
    func ledger(_ resources: [String], useCache: Bool, _ facts: EngineFacts) -> PreauthorizationLedger {
        PreauthorizationLedger(
            requested: resources, cached: facts.preauthorizations, useCache: useCache, now: facts.adobeNow)
    }

    /// Starts a round of preauthorizations with `call`; calls that arrive while it gathers join it.
    mutating func preauthorize(
        _ call: PreauthorizationRound.Call, profile: StoredProfile, snapshot: PartnerSnapshot?, _ step: inout Step
    ) {
        foreground = .preauthorizing(
            PreauthorizationRound(
                first: call, profile: profile,
                partnerStatus: decisionPartnerStatus(for: profile, snapshot: snapshot, step.facts), snapshot: snapshot))
    }

    /// Asks the round's next batch, or answers every call when nothing is left to ask.
    mutating func askNextPreauthorizationBatch(_ step: inout Step) {
        guard case .preauthorizing(var round)? = foreground else { return }
        if round.isComplete { return finish(round, &step) }
        guard let resources = round.nextBatch else { return }
        let ticket = newTicket()
        // Decisions Adobe Pass asked to request again wait the back-off's shortest wait first.
        let wait = round.retries.wait(before: resources)
        let notBefore = round.nextIsRetry ? step.facts.now.addingTimeInterval(wait) : nil
        round.sent(as: ticket)
        foreground = .preauthorizing(round)
        step.actions.append(
            .requestDecisions(
                ticket, .preauthorize, resources: resources,
                target(mvpd: round.profile.mvpd, partnerStatus: round.partnerStatus, step.facts),
                notBefore: notBefore))
    }

    /// A preauthorization request answered.
    mutating func preauthorizationAnswered(
        _ ticket: RequestTicket, _ result: Result<[Decision], RESTClientError>, _ step: inout Step
    ) {
        guard case .preauthorizing(var round)? = foreground, let request = round.answered(ticket) else { return }
        switch result {
        case .success(let decisions):
            let answered = round.record(decisions)
            let fresh = round.calls.first?.ledger.answersToCache(answered, now: step.facts.adobeNow) ?? [:]
            step.facts.preauthorizations.merge(fresh) { $1 }
            step.actions.append(
                .storePreauthorizations(step.facts.preauthorizations, requestor: round.profile.requestor))
        case .failure(let error) where error.advice == .tooManyResources && request.resources.count > 1:
            // More resources than the integration allows: halves, and smaller requests from now on.
            if let limit = round.split(refused: request) {
                learnedPreauthorizationLimit = limit
            } else {
                round.stop(error)
            }
        case .failure(let error) where error.advice?.asksForConfiguration == true && request.attempt == 1:
            // A dashboard change the cached configuration does not know: fetch it, then ask once more.
            let refetch = newTicket()
            round.awaitRefetch(request, as: refetch)
            step.actions.append(
                .fetchConfiguration(refetch, requestor: round.profile.requestor, serviceProviders: serviceProviders))
        case .failure(let error):
            round.stop(error)
        }
        foreground = .preauthorizing(round)
        askNextPreauthorizationBatch(&step)
    }

    /// Nothing more will be asked: every call is answered, in call order.
    private mutating func finish(_ round: PreauthorizationRound, _ step: inout Step) {
        foreground = nil
        var signedOut = false
        for call in round.calls {
            let error = round.failed(call) ? round.failure : nil
            switch call.answer {
            case .legacy:
                if let error {
                    step.deliver(
                        .status(
                            integrationEnded(error.enhancedError, mvpd: round.profile.mvpd, &step)
                                ?? signInEnded(error.enhancedError, signedOut: &signedOut, &step)
                                ?? ErrorClassification.unsendableToken(error)
                                ?? ErrorClassification.preauthorizationStatus(error)),
                        to: call.owner)
                }
                step.deliver(.preauthorizedResources(call.ledger.permitted), to: call.owner)
            case .preauthorizeAPI(let callback):
                if let error {
                    _ =
                        integrationEnded(error.enhancedError, mvpd: round.profile.mvpd, &step)
                        ?? signInEnded(error.enhancedError, signedOut: &signedOut, &step)
                    if let unsendable = ErrorClassification.unsendableToken(error) {
                        step.deliver(.status(unsendable), to: call.owner)
                    }
                    step.deliver(
                        .preauthorizeResult(PreauthorizationRound.preauthorizeOutcome(for: error), callback),
                        to: call.owner)
                } else {
                    step.deliver(
                        .preauthorizeResult(.decisions(call.ledger.resourceDecisions), callback), to: call.owner)
                }
            }
        }
    }
}
