import Foundation

extension EngineStateMachine {
    /// The app released the AccessEnabler (the engine's mailbox is closed and drained): no
    /// answer of Adobe Pass, the partner framework or the clock will be read any more, so
    /// every call still waiting ends now with its failure callback, and nothing is left
    /// under way. Calls whose work was under way end first (an authentication in the SDK's
    /// hands, then the foreground work), then the calls that never ran, in the order they
    /// were made. Nothing is sent and nothing more is stored.
    mutating func released(_ step: inout Step) {
        forward(&step) { machine, _, step in machine.released(&step) }
        // The engine has cancelled every timer, the quiet window's too.
        quietWindowOpen = false
        let work = foreground
        foreground = nil
        switch work {
        case .requestor(.loading(_, let call, _))?, .requestor(.loadingConfiguration(_, let call, _))?,
            .requestor(.checkingPartner(_, let call))?, .requestor(.checkingPartnerFirst(_, let call))?,
            .requestor(.signingInSilently(_, let call))?:
            step.deliver(.setRequestorComplete(ACCESS_ENABLER_STATUS_ERROR), to: call)
        case .awaitingPartner(_, let verdictWork)?:
            endUnrun(verdictWork, &step)
        case .authorizing(let round)?:
            for call in round.calls { step.deliver(Self.releasedAuthorization(call.resource), to: call.owner) }
        case .preauthorizing(let round)?:
            for call in round.calls {
                switch call.answer {
                case .legacy: step.deliver(.preauthorizedResources([]), to: call.owner)
                case .preauthorizeAPI(let callback):
                    step.deliver(.preauthorizeResult(.sdkFailure(.accessEnablerReleased), callback), to: call.owner)
                }
            }
        case nil:
            break
        }
        let waiting = queue
        queue = []
        for work in waiting {
            switch work {
            case .command(let command, let call): endUnrun(command, call: call, &step)
            case .authorizePending(let pending): endUnrun(.authorizePending(pending), &step)
            }
        }
        forward(&step) { machine, _, step in machine.failOrphanedAuthorization(&step) }
    }

    /// A call that waited for the user's authentication to be judged ends unanswered.
    private func endUnrun(_ work: VerdictWork, _ step: inout Step) {
        switch work {
        case .checkAuthentication(let call), .reportAuthentication(let call):
            step.deliver(
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR), to: call
            )
        case .getAuthentication(_, _, let call):
            step.deliver(
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR), to: call
            )
        case .getAuthorization(let resource, _, let call), .checkAuthorization(let resource, let call):
            step.deliver(Self.releasedAuthorization(resource), to: call)
        case .authorizePending(let pending):
            step.deliver(Self.releasedAuthorization(pending.resource), to: pending.owner)
        case .checkPreauthorizedResources(_, _, let call):
            step.deliver(.preauthorizedResources([]), to: call)
        case .preauthorize(_, let callback, let call):
            step.deliver(.preauthorizeResult(.sdkFailure(.accessEnablerReleased), callback), to: call)
        case .getSelectedProvider(let call):
            step.deliver(.selectedProvider(nil), to: call)
        }
    }

    /// A call that never ran ends with its failure callback (`setOptions` with none).
    private func endUnrun(_ command: Command, call: CallID?, _ step: inout Step) {
        switch command {
        case .setOptions, .selectProfile:
            break
        case .setRequestor:
            step.deliver(.setRequestorComplete(ACCESS_ENABLER_STATUS_ERROR), to: call)
        case .checkAuthentication:
            endUnrun(.checkAuthentication(call: call), &step)
        case .getAuthentication, .setSelectedProvider, .handleExternalURL, .logout:
            step.deliver(
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR), to: call
            )
        case .checkAuthorization(let resource, _), .getAuthorization(let resource, _):
            step.deliver(Self.releasedAuthorization(resource), to: call)
        case .checkPreauthorizedResources:
            step.deliver(.preauthorizedResources([]), to: call)
        case .preauthorize(_, let callback):
            step.deliver(.preauthorizeResult(.sdkFailure(.accessEnablerReleased), callback), to: call)
        case .getSelectedProvider:
            step.deliver(.selectedProvider(nil), to: call)
        case .getMetadata(let query, let arguments):
            step.deliver(.setMetadataStatus(nil, encrypted: false, key: query.key, arguments: arguments), to: call)
        }
    }

    private static func releasedAuthorization(_ resource: String) -> DelegateCall {
        .tokenRequestFailed(
            resource, errorCode: GENERIC_AUTHORIZATION_ERROR,
            description: StatusSentences.releasedBeforeAuthorization(resource))
    }
}
