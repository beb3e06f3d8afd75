import Foundation

extension EntitlementEngine {
    /// Runs `work` as a child task for the machine's request `ticket`; its answer comes
    /// back as an event.
    func startRequest(_ ticket: RequestTicket, _ work: @escaping @Sendable () async -> EngineEvent) {
        startChild(.request(ticket), work)
    }

    /// Runs `work` as the child task of request `ticket`, once the access token of the one
    /// client it talks to is ready (``PreparedAccessToken``): a cold device then waits for its
    /// registration in a shallow task. Work that talks to several clients starts at once.
    func startSignedRequest(
        _ ticket: RequestTicket, to clients: [RESTClient], context: RequestContext,
        _ work: @escaping @Sendable () async -> EngineEvent
    ) {
        guard clients.count == 1, let provider = clients.first?.tokenProvider else {
            return startRequest(ticket, work)
        }
        startRequest(ticket) {
            let prepared = await PreparedAccessToken.prepare(provider, for: context)
            return await PreparedAccessToken.$current.withValue(prepared) { await work() }
        }
    }

    /// Runs `work` as a child task under `key`; unless the child is cancelled meanwhile,
    /// the event it returns is posted to the mailbox. A child already under `key` is
    /// cancelled.
    func startChild(_ key: EngineChildren.Key, _ work: @escaping @Sendable () async -> EngineEvent) {
        let token = mailbox.activity.childStarted()
        let task = Self.spawn(posting: work, to: mailbox, token: token)
        if let replaced = children.started(EngineChildren.Child(task: task, token: token, isTimer: false), as: key) {
            EngineChildren.cancel(replaced, activity: mailbox.activity)
        }
    }

    /// The child task itself, started outside the engine's isolation: it never needs the
    /// engine (the mailbox and the tracker are thread-safe), so it costs no hop onto the
    /// engine's executor, neither to start nor to end.
    private nonisolated static func spawn(
        posting work: @escaping @Sendable () async -> EngineEvent, to mailbox: EngineMailbox, token: UInt64
    ) -> Task<Void, Never> {
        Task {
            let event = await work()
            if !Task.isCancelled { mailbox.post(event) }
            mailbox.activity.childEnded(token)
        }
    }

    /// Runs the interactive partner sign-in as a child task; its picker and its outcome
    /// come back as events, so the engine keeps answering other calls meanwhile. The
    /// sign-in goes on after the picker opened, and after it closed, only once the app has
    /// heard so (``PickerDeliveries``).
    func startPartnerSignIn(_ flow: FlowID, filter: PickerFilter?, catalog: RequestorCatalog) {
        guard let signIn = partnerSignIn(catalog) else {
            return mailbox.post(.partnerSignInFinished(flow, .showProviderDialog(nil)))
        }
        let (mailbox, deliveries) = (mailbox, pickerDeliveries)
        startChild(.partnerSignIn(flow)) {
            .partnerSignInFinished(
                flow,
                await signIn.interactive(
                    filter: filter,
                    presented: {
                        mailbox.post(.pickerPresented(flow, $0))
                        await deliveries.waitUntilDelivered(.presented(flow))
                    },
                    dismissed: {
                        mailbox.post(.pickerDismissed(flow, $0))
                        await deliveries.waitUntilDelivered(.dismissed(flow))
                    }))
        }
    }

    /// Sets the poll timer of `flow` on the configuration's clock.
    func setPollTimer(_ flow: FlowID, until deadline: Date) {
        setTimer(.pollTimer(flow), until: deadline, posting: .pollDue(flow))
    }

    /// Sets a timer under `key` on the configuration's clock: at `deadline` it posts `event`.
    func setTimer(_ key: EngineChildren.Key, until deadline: Date, posting event: EngineEvent) {
        let token = mailbox.activity.timerSet(for: deadline)
        let task = Self.spawnTimer(posting: event, until: deadline, sleeper: sleeper, mailbox: mailbox, token: token)
        if let replaced = children.started(EngineChildren.Child(task: task, token: token, isTimer: true), as: key) {
            EngineChildren.cancel(replaced, activity: mailbox.activity)
        }
    }

    /// A timer's task, outside the engine's isolation.
    private nonisolated static func spawnTimer(
        posting event: EngineEvent, until deadline: Date, sleeper: any Sleeper, mailbox: EngineMailbox, token: UInt64
    ) -> Task<Void, Never> {
        Task {
            do throws(CancellationError) {
                try await sleeper.sleep(until: deadline)
            } catch {
                mailbox.activity.timerEnded(token)
                return
            }
            mailbox.activity.timerFired(token) { mailbox.postCounted(event) }
        }
    }
}
