import Foundation

/// The partner sign-in: a child task asks for permission, shows the system picker and
/// exchanges the person's choice; its picker's opening and closing and its outcome come back
/// as events of its flow.
extension AuthenticationStateMachine {
    /// The partner sign-in of `flow` starts with the configuration that made it apply. Should
    /// it no longer apply, the person chooses in the app's provider dialog instead.
    mutating func startPartnerSignIn(
        _ flow: FlowID, _ filter: PickerFilter?, _ context: AuthenticationContext, _ step: inout Step
    ) {
        guard context.partnerSignInApplies(step.facts), let catalog = step.facts.catalog else {
            return partnerSignInFinished(flow, .showProviderDialog(nil), context, &step)
        }
        step.actions.append(.startPartnerSignIn(flow, filter, catalog))
    }

    /// The partner sign-in child task shows the system picker.
    mutating func pickerPresented(_ flow: FlowID, _ dialog: TVProviderDialog, _ step: inout Step) {
        guard case .signingInThroughPartner(flow, _) = state else { return }
        state = .signingInThroughPartner(flow, dialog: dialog)
        step.deliver(.presentTVProviderDialog(dialog), to: owner)
    }

    /// The system picker closed.
    mutating func pickerDismissed(_ flow: FlowID, _ dialog: TVProviderDialog, _ step: inout Step) {
        guard case .signingInThroughPartner(flow, _) = state else { return }
        state = .signingInThroughPartner(flow, dialog: nil)
        step.deliver(.dismissTVProviderDialog(dialog), to: owner)
    }

    /// The partner sign-in child task ended: the app's provider dialog, this MVPD's regular
    /// login, a sign-in, or a failure.
    mutating func partnerSignInFinished(
        _ flow: FlowID, _ outcome: PartnerSignInOutcome, _ context: AuthenticationContext, _ step: inout Step
    ) {
        guard case .signingInThroughPartner(flow, let dialog) = state else { return }
        if let dialog { step.deliver(.dismissTVProviderDialog(dialog), to: owner) }
        // Every outcome but a login continuing the flow answers its caller now.
        if case .regularLogin = outcome {} else { ownerAnswered = true }
        switch outcome {
        case .showProviderDialog(let status):
            state = .choosingProvider
            if let status { step.deliver(.status(status), to: owner) }
            showProviderDialog(to: owner, &step)
        case .regularLogin(let mvpd, let opened):
            state = .openingSession(flow, mvpd: mvpd, step: .creating)
            trackProviderSelection(mvpd, to: owner, context, &step)
            openSession(flow, mvpd: mvpd, opened: opened, context, &step)
        case .signedIn(let profile, let status):
            signIn(profile, note: status, context, &step)
        case .failed(let status):
            failFlow(status, context, &step)
        }
    }
}
