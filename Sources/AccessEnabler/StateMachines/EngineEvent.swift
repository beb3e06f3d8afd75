import Foundation

/// What reaches the engine's state machine, one at a time in arrival order: the facade's
/// calls, and what the child tasks found out — every answer of the network, the partner
/// framework and the clock comes back as one of these; nothing is awaited inside a step.
///
/// Indirect: an event's payload lives in a box of its own, so an event is one reference
/// wherever it is held. Inline it took 449 bytes, and the async frame of the engine's loop,
/// which every AccessEnabler keeps for its whole life, held several: 7.2 KiB per
/// AccessEnabler (heaptrack); boxed, the frame fits in its task's first allocation.
indirect enum EngineEvent: Sendable {
    /// A facade call; `call` identifies it for the callbacks it ends in.
    case command(Command, call: CallID?)

    // MARK: setRequestor

    /// The profiles Adobe Pass holds for the device (DCR first when needed), with the
    /// pending logouts sent first.
    case requestorLoaded(RequestTicket, RequestorLoad)
    /// The partner framework's silent answers (permission, signed-in account).
    case partnerAnswered(RequestTicket, PartnerSnapshot)
    /// The silent exchange of a system-level sign-in ended: the profile, when it gave one.
    case silentSignInFinished(RequestTicket, StoredProfile?)
    /// The configuration of every service provider, merged (or why it could not be had).
    case configurationFetched(RequestTicket, Result<RequestorCatalog, RESTClientError>)

    // MARK: Interactive authentication

    /// The configuration `flow` waited for arrived (or could not be had).
    case flowConfigurationFetched(FlowID, Result<RequestorCatalog, RESTClientError>)
    /// The partner sign-in of `flow` opened the system picker.
    case pickerPresented(FlowID, TVProviderDialog)
    /// The system picker of `flow` closed.
    case pickerDismissed(FlowID, TVProviderDialog)
    /// The partner sign-in of `flow` ended.
    case partnerSignInFinished(FlowID, AuthenticationStateMachine.PartnerSignInOutcome)
    /// `POST sessions` of `flow` answered.
    case sessionAnswered(FlowID, Result<SessionAction, RESTClientError>)
    /// The profile of an `authorize` session answer (TempPass, degradation, an existing profile).
    case sessionProfileAnswered(FlowID, Result<[ProfileAnswer], RESTClientError>)
    /// The poll timer of `flow` fired.
    case pollDue(FlowID)
    /// A poll of `flow` answered.
    case pollAnswered(FlowID, Result<[ProfileAnswer], RESTClientError>)

    // MARK: Authorization, logout

    /// A decisions request (authorize or preauthorize) answered.
    case decisionsAnswered(RequestTicket, Result<[Decision], RESTClientError>)
    /// The logout requests answered (one per MVPD).
    case logoutAnswered(RequestTicket, LogoutAnswers)
    /// The app did not come back from the logout page of `ticket`'s logout in time.
    case logoutPageTimedOut(RequestTicket)

    // MARK: Elsewhere

    /// A new registration of the application removed the sign-in of these requestors.
    case signedOutByNewRegistration([String])
    /// Nothing else is waiting in the mailbox: work gathered from a burst of calls waits
    /// for the quiet window (``EngineAction/awaitQuietWindow``).
    case mailboxDrained
    /// No event came for the quiet window: work gathered from a burst of calls goes out.
    case quietWindowElapsed
    /// The app released the AccessEnabler and the mailbox is drained: no answer will be read
    /// any more, so every call still waiting ends now.
    case released
}

extension EngineEvent {
    /// The requestor a `setRequestor` call names (trimmed; `nil` for an empty one and for
    /// every other event): the engine reads that requestor's storage for the call.
    var requestorNamed: String? {
        guard case .command(.setRequestor(let id, _), _) = self else { return nil }
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
}
