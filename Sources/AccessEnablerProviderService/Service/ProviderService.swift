import AccessEnabler
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `accessenabler provider-service`: the device's TV provider account service — the
/// partner framework of every app on the device, out of process.
///
/// The driver of ``ProviderServiceMachine``: one loop takes, in order, what the sockets
/// read and what the service's own work brings back (a prompt's answer, the identity
/// service's, a timer), hands it to the machine, and carries out the actions it returns.
/// Only that loop touches the machine and the connection table; the sockets' threads and
/// the work's tasks only post to it.
package final class ProviderService: @unchecked Sendable {
    /// What the service is started with.
    package struct Settings: Sendable {
        /// The socket's path.
        package var socketPath: String
        /// Where the state file lives.
        package var stateDirectory: String
        /// Who may connect (``PeerPolicy``).
        package var sharing: PeerPolicy.Sharing = .user
        /// The TV provider identity service's base URL.
        package var identityProvider: URL
        /// How the service reaches it.
        package var transport: any HTTPTransport = URLSessionTransport()
        /// Seconds one request to it may take: less than an app waits for an answer
        /// (``DeviceProviderService/answerTimeout``), so the app hears why.
        package var identityProviderTimeout: TimeInterval = 10
        /// The device's prompt, if it has one.
        package var prompt: PromptHook?
        /// How long an interactive request waits for the person when it does not say.
        package var defaultWait: TimeInterval = 300
        /// The longest any request may wait.
        package var maximumWait: TimeInterval = 900
        /// The most connections at once.
        package var maximumConnections = 128

        package init(socketPath: String, stateDirectory: String, identityProvider: URL) {
            self.socketPath = socketPath
            self.stateDirectory = stateDirectory
            self.identityProvider = identityProvider
        }
    }

    /// Why the service could not start, in a sentence.
    package struct StartFailure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    private enum Input: Sendable {
        case connected(Int32)
        case line(Int, [UInt8])
        case closed(Int)
        case event(ProviderServiceMachine.Event)
        case stop
    }

    private let settings: Settings
    private let listener: UnixSocketListener
    private let store: ProviderServiceStore
    private let identityProvider: IdentityProviderClient
    private let log: @Sendable (String) -> Void
    private let inputs: AsyncStream<Input>
    private let post: AsyncStream<Input>.Continuation
    // Owned by the loop of ``run()``.
    private var machine: ProviderServiceMachine
    private var connections: [Int: (connection: ServiceConnection, role: PeerRole)] = [:]
    private var subscribers: Set<Int> = []
    /// Requests of each connection still to be answered.
    private var unanswered: [Int: Int] = [:]
    /// Connections whose process stopped writing: closed once their requests are answered
    /// (`echo … | socat` half-closes at once and still reads the answer).
    private var draining: Set<Int> = []
    private var nextConnection = 1

    /// Prepares the state directory and the socket's, reads the state, and listens.
    package init(settings: Settings, log: @escaping @Sendable (String) -> Void) throws(StartFailure) {
        self.settings = settings
        self.log = log
        do {
            store = try ProviderServiceStore(directory: settings.stateDirectory)
            let socketDirectory = URL(fileURLWithPath: settings.socketPath).deletingLastPathComponent().path
            switch settings.sharing {
            case .user: try PrivateDirectory.prepare(socketDirectory, mode: 0o700)
            case .group(let group): try PrivateDirectory.prepare(socketDirectory, mode: 0o750, group: group)
            }
        } catch {
            throw StartFailure(description: error.description)
        }
        let (state, problem) = store.load()
        if let problem { log("warning: \(problem)") }
        machine = ProviderServiceMachine(
            settings: .init(
                canPrompt: settings.prompt != nil, defaultWait: settings.defaultWait,
                maximumWait: settings.maximumWait),
            stored: state)
        identityProvider = IdentityProviderClient(
            base: settings.identityProvider, transport: settings.transport, timeout: settings.identityProviderTimeout)
        do {
            let mode: mode_t = settings.sharing == .user ? 0o600 : 0o660
            var group: gid_t?
            if case .group(let gid) = settings.sharing { group = gid }
            listener = try UnixSocketListener(path: settings.socketPath, mode: mode, group: group) { stale in
                log("removed a stale socket left at \(stale) by a service that is gone")
            }
        } catch {
            throw StartFailure(description: error.description)
        }
        (inputs, post) = AsyncStream<Input>.makeStream()
    }

    /// What the state file holds now: the household's provider (never the credential) and
    /// how many apps have a permission.
    package var summary: String {
        let household =
            machine.household.map { "signed in to \($0.providerName) (\($0.provider)) until \($0.expiresAt)" }
            ?? "not signed in"
        return "household \(household); \(machine.permissions.count) app permission(s) on record"
    }

    /// Serves until ``stop()``; the socket file is removed on the way out.
    package func run() async {
        listener.start { [post] descriptor in post.yield(.connected(descriptor)) }
        for await input in inputs {
            switch input {
            case .connected(let descriptor): accept(descriptor)
            case .line(let number, let bytes): read(bytes, from: number)
            case .closed(let number):
                draining.insert(number)
                closeIfDone(number)
            case .event(let event): perform(machine.handle(event, now: Date()))
            case .stop:
                listener.close()
                for (connection, _) in connections.values { connection.closeAfterSending() }
                post.finish()
            }
        }
    }

    /// Ends ``run()``: the socket closes, every connection too.
    package func stop() { post.yield(.stop) }

    // MARK: Connections

    private func accept(_ descriptor: Int32) {
        let number = nextConnection
        nextConnection += 1
        let connection = ServiceConnection(number: number, descriptor: descriptor)
        let peerUID = connection.peer?.uid ?? uid_t.max
        guard let role = PeerPolicy.role(peer: peerUID, service: geteuid(), sharing: settings.sharing) else {
            log(
                "refused a connection from user \(peerUID) (process \(connection.peer?.pid ?? 0)): this service "
                    + "serves user \(geteuid()) only"
            )
            connection.send(
                ServiceWire.line(
                    answering: nil, with: .failure(ServiceError(.notPermitted, "This service serves another user."))))
            refuse(connection)
            return
        }
        guard connections.count < settings.maximumConnections else {
            connection.send(
                ServiceWire.line(
                    answering: nil, with: .failure(ServiceError(.busy, "Too many connections; try again shortly."))))
            refuse(connection)
            return
        }
        connections[number] = (connection, role)
        connection.startReading(
            line: { [post] bytes in post.yield(.line(number, bytes)) },
            ended: { [post] in post.yield(.closed(number)) })
    }

    /// Closes a connection that was never served (its reader closes the descriptor).
    private func refuse(_ connection: ServiceConnection) {
        connection.startReading(line: { _ in }, ended: {})
        connection.endAfterSending()
    }

    private func read(_ bytes: [UInt8], from number: Int) {
        guard let (connection, role) = connections[number] else { return }
        switch ServiceWire.request(bytes) {
        case .success(let (id, request)):
            unanswered[number, default: 0] += 1
            perform(machine.handle(.request(Ticket(connection: number, id: id), request, role), now: Date()))
        case .failure(let refusal):
            connection.send(ServiceWire.line(answering: refusal.id, with: .failure(refusal.error)))
        }
    }

    /// Closes a connection whose process stopped writing once nothing it asked is left to
    /// answer (a subscription ends with it); the answers already queued go out first.
    private func closeIfDone(_ number: Int) {
        guard draining.contains(number), unanswered[number, default: 0] <= 0 else { return }
        draining.remove(number)
        unanswered[number] = nil
        subscribers.remove(number)
        connections.removeValue(forKey: number)?.connection.closeAfterSending()
        perform(machine.handle(.connectionClosed(number), now: Date()))
    }

    // MARK: Actions

    private func perform(_ actions: [ProviderServiceMachine.Action]) {
        for action in actions { perform(action) }
    }

    private func perform(_ action: ProviderServiceMachine.Action) {
        let post = post
        let identityProvider = identityProvider
        switch action {
        case .answer(let ticket, let answer):
            // A connection already closed is answered to nobody.
            guard let (connection, _) = connections[ticket.connection] else { return }
            connection.send(ServiceWire.line(answering: ticket.id, with: answer))
            unanswered[ticket.connection, default: 1] -= 1
            closeIfDone(ticket.connection)
        case .broadcast(let event):
            let line = ServiceWire.line(for: event)
            for number in subscribers { connections[number]?.connection.send(line) }
            log("event: \(Self.describe(event))")
        case .subscribe(let number):
            subscribers.insert(number)
        case .save(let state):
            do { try store.save(state) } catch { log("error: the state could not be saved: \(error)") }
        case .runPrompt(let app):
            guard let prompt = settings.prompt else { return }
            log("asking the person whether \(app) may use the TV provider sign-in")
            Task { post.yield(.event(.promptAnswered(app, await prompt.ask(app)))) }
        case .requestSignInCode(let supported, let featured):
            Task {
                post.yield(
                    .event(
                        .signInCodeIssued(await identityProvider.requestCode(supported: supported, featured: featured)))
                )
            }
        case .schedulePoll(let seconds):
            Task {
                try? await Task.sleep(nanoseconds: Self.nanoseconds(seconds))
                post.yield(.event(.pollDue))
            }
        case .pollSignIn(let deviceCode):
            Task { post.yield(.event(.signInPolled(await identityProvider.poll(deviceCode: deviceCode)))) }
        case .scheduleWaitEnd(let ticket, let date):
            Task {
                try? await Task.sleep(nanoseconds: Self.nanoseconds(date.timeIntervalSinceNow))
                post.yield(.event(.waitEnded(ticket)))
            }
        case .askSAML(let ticket, let samlRequest, let credential):
            Task {
                post.yield(
                    .event(
                        .samlAnswered(
                            ticket, await identityProvider.samlResponse(to: samlRequest, credential: credential))))
            }
        case .revoke(let credential):
            Task { await identityProvider.revoke(credential) }
        case .announce(let code):
            log("TV provider sign-in: open \(code.url) and type the code \(code.code) (valid until \(code.expiresAt))")
        }
    }

    /// `seconds` (clamped to 0…1 day) in nanoseconds.
    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, min(seconds.isFinite ? seconds : 0, 86_400)) * 1_000_000_000)
    }

    private static func describe(_ event: ServiceEvent) -> String {
        switch event {
        case .signInStarted(let code): "sign-in started (code \(code.code))"
        case .signedIn(let provider, let name, let expiresAt): "signed in to \(name) (\(provider)) until \(expiresAt)"
        case .signedOut: "signed out"
        case .signInEnded(let reason): "sign-in ended without a sign-in (\(reason))"
        case .permissionChanged(let app, let permission): "\(app): \(permission.rawValue)"
        }
    }
}
