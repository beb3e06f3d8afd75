import Foundation

extension EntitlementEngine {
    /// Carries out the state machine's actions, in order.
    func perform(_ actions: [AuthenticationStateMachine.Action]) async {
        for action in actions {
            if let flow = action.flow { carryOn(flow) }
            switch action {
            case .status(let status):
                emitStatus(status)
            case .setAuthenticationStatus(let status, let code):
                emit(.setAuthenticationStatus(status, errorCode: code))
            case .tokenRequestFailed(let pending, let description):
                await on(behalfOf: pending.owner) {
                    emit(.tokenRequestFailed(pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: description))
                }
            case .presentPicker(let dialog):
                emit(.presentTVProviderDialog(dialog))
            case .dismissPicker(let dialog):
                emit(.dismissTVProviderDialog(dialog))
            case .showProviderDialog:
                emit(.displayProviderDialog(mvpds))
            case .startPartnerSignIn(let flow, let filter):
                startPartnerSignIn(flow, filter: filter)
            case .cancelPartnerSignIn(let flow):
                cancel(children.cancelPartnerSignIn(flow), isTimer: false)
            case .createSession(let flow, let mvpd, let opened):
                await openSession(flow, mvpd: mvpd, opened: opened)
            case .openLoginPage(let url, let mvpd):
                emitNavigation(to: url, mvpd: mvpd)
            case .waitForPoll(let flow, let until):
                setPollTimer(flow, until: until)
            case .stopPolling(let flow):
                let stopped = children.stopPolling(flow)
                cancel(stopped.timer, isTimer: true)
                cancel(stopped.fetch, isTimer: false)
            case .fetchProfile(let flow, let session):
                startPollFetch(flow, session: session)
            case .store(let profile):
                reportClockDifferenceIfNew()
                store.setProfile(profile)
            case .succeed(let pending, let cached):
                if !cached, let expired = newProfileExpiredByAdobesTime() {
                    // A sign-in that is over already is not a success (a clock set far
                    // ahead with no Date header to correct it).
                    emitStatus(expired)
                    emitTracking(authenticationSucceeded: false, profile: nil, cached: false)
                    emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR))
                    if let pending {
                        await on(behalfOf: pending.owner) {
                            emit(.tokenRequestFailed(pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: expired.message ?? ""))
                        }
                    }
                    continue
                }
                emitTracking(authenticationSucceeded: true, profile: requestorID.flatMap { store.profile(requestor: $0) }, cached: cached)
                emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED))
                if let pending { await on(behalfOf: pending.owner) { await authorize(pending.resource, data: pending.data) } }
            case .fail(let status, let code, let pending):
                if let status { emitStatus(status) }
                emitTracking(authenticationSucceeded: false, profile: nil, cached: false)
                emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: code))
                if let pending {
                    await on(behalfOf: pending.owner) {
                        emit(.tokenRequestFailed(pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: "The user could not be authenticated, so \(pending.resource) was not authorized."))
                    }
                }
            case .reportCurrentAuthentication:
                await reportCurrentAuthentication()
            }
        }
    }

    /// A flow belongs to the last call that carried it on; the call it belonged to until
    /// now hears of it, in order with the callbacks (an async call waiting on the flow then
    /// ends with the new owner's callbacks).
    func carryOn(_ flow: FlowID) {
        guard let currentCall else { return }
        if let previous = flowOwners[flow], previous != currentCall { dispatcher.dispatchTakeover(of: previous, by: currentCall) }
        flowOwners[flow] = currentCall
    }

    // MARK: Child tasks

    /// Cancels a child task; it stops counting as work under way at once.
    private func cancel(_ child: FlowChildren.Child?, isTimer: Bool) {
        guard let child else { return }
        child.task.cancel()
        if isTimer { mailbox.activity.timerEnded(child.token) } else { mailbox.activity.childEnded(child.token) }
    }

    /// Runs the interactive partner sign-in as a child task; its picker and its outcome
    /// come back as events, so the engine keeps answering other calls meanwhile.
    private func startPartnerSignIn(_ flow: FlowID, filter: PickerFilter?) {
        guard let signIn = partnerSignIn() else {
            mailbox.post(.partnerSignInFinished(flow, .showProviderDialog(nil)))
            return
        }
        let mailbox = mailbox
        let token = mailbox.activity.childStarted()
        let task = Task {
            let outcome = await signIn.interactive(
                filter: filter,
                presented: { mailbox.post(.pickerPresented(flow, $0)) },
                dismissed: { mailbox.post(.pickerDismissed(flow, $0)) })
            if !Task.isCancelled { mailbox.post(.partnerSignInFinished(flow, outcome)) }
            mailbox.activity.childEnded(token)
        }
        cancel(children.startedPartnerSignIn(FlowChildren.Child(flow: flow, task: task, token: token)), isTimer: false)
    }

    /// Sets the poll timer of `flow` on the configuration's clock.
    private func setPollTimer(_ flow: FlowID, until deadline: Date) {
        let mailbox = mailbox
        let sleeper = sleeper
        let token = mailbox.activity.timerSet(for: deadline)
        let task = Task {
            do throws(CancellationError) {
                try await sleeper.sleep(until: deadline)
            } catch {
                mailbox.activity.timerEnded(token)
                return
            }
            mailbox.activity.timerFired(token) { mailbox.postCounted(.pollDue(flow)) }
        }
        cancel(children.setPollTimer(FlowChildren.Child(flow: flow, task: task, token: token)), isTimer: true)
    }

    /// `GET profiles/code/{code}` as a child task; the answer comes back as an event.
    private func startPollFetch(_ flow: FlowID, session: AuthenticationSession) {
        guard let requestor = requestorID else { return }
        let client = client(for: session.mvpd)
        let context = context()
        let mailbox = mailbox
        let token = mailbox.activity.childStarted()
        let task = Task {
            let result: Result<[Profile], RESTClientError>
            do throws(RESTClientError) {
                result = .success(try await client.profile(serviceProvider: requestor, code: session.code, context: context))
            } catch {
                result = .failure(error)
            }
            if !Task.isCancelled { mailbox.post(.pollAnswered(flow, session: session, result)) }
            mailbox.activity.childEnded(token)
        }
        cancel(children.startedPollFetch(FlowChildren.Child(flow: flow, task: task, token: token)), isTimer: false)
    }
}
