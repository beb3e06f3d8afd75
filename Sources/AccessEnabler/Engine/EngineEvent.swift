import Foundation

/// What reaches the engine's mailbox: the facade's calls, and the answers of the child
/// tasks that wait for a person or for time (the partner sign-in, the poll timer, a poll in
/// flight). The engine handles one event at a time, in arrival order.
enum EngineEvent: Sendable {
    /// A facade call; `call` identifies it for the callbacks it produces.
    case command(Command, call: CallID?)
    /// The partner sign-in of `flow` opened the system picker.
    case pickerPresented(FlowID, TVProviderDialog)
    /// The system picker of `flow` closed.
    case pickerDismissed(FlowID, TVProviderDialog)
    /// The partner sign-in of `flow` ended.
    case partnerSignInFinished(FlowID, AuthenticationStateMachine.PartnerSignInOutcome)
    /// The poll timer of `flow` fired.
    case pollDue(FlowID)
    /// A poll of `flow` answered.
    case pollAnswered(FlowID, session: AuthenticationSession, Result<[Profile], RESTClientError>)
}
