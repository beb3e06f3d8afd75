import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Recorded answers of the sandbox and the simulated device, per flow, so a flow can be
/// run again with nothing but the SDK doing work: the CPU-time measurement's way of
/// leaving the in-process sandbox out of the figure.
///
/// - `live`: everything goes to the sandbox and the device; nothing is kept.
/// - `recording`: the same, and each answer is appended to the current flow's tape.
/// - `replaying`: answers come from the current flow's tape, in order — HTTP answers in the
///   order of their request (method and path), since requests sent together (setRequestor's
///   configuration and profiles) may reach the transport in either order; the sandbox and
///   the device are not consulted. A call past the end of the tape is a miss (counted).
final class ReplayTape: @unchecked Sendable {
    enum Mode: Sendable { case live, recording, replaying }

    private struct Reel {
        var http: [String: [Result<HTTPResponseMessage, TransportFailure>]] = [:]
        var access: [PartnerAccessResult] = []
        var metadata: [Result<PartnerAccountMetadata, PartnerFrameworkError>] = []
    }

    private struct Cursor {
        var http: [String: Int] = [:]
        var access = 0
        var metadata = 0
    }

    private let lock = NSLock()
    private var reels: [String: Reel] = [:]
    private var mode = Mode.live
    private var flow = ""
    private var cursor = Cursor()
    private var missCount = 0

    /// Answers not found on the tape while replaying.
    var misses: Int { lock.withLock { missCount } }

    /// Starts `flow` in `mode`: recording empties its tape, replaying rewinds it.
    func begin(_ flow: String, _ mode: Mode) {
        lock.withLock {
            self.flow = flow
            self.mode = mode
            cursor = Cursor()
            if mode == .recording { reels[flow] = Reel() }
        }
    }

    var currentMode: Mode { lock.withLock { mode } }

    func nextHTTP(for request: String) -> Result<HTTPResponseMessage, TransportFailure>? {
        lock.withLock {
            let position = cursor.http[request, default: 0]
            guard let answers = reels[flow]?.http[request], position < answers.count else { missCount += 1; return nil }
            cursor.http[request] = position + 1
            return answers[position]
        }
    }

    func nextAccess() -> PartnerAccessResult? {
        lock.withLock {
            guard let reel = reels[flow], cursor.access < reel.access.count else { missCount += 1; return nil }
            defer { cursor.access += 1 }
            return reel.access[cursor.access]
        }
    }

    func nextMetadata() -> Result<PartnerAccountMetadata, PartnerFrameworkError>? {
        lock.withLock {
            guard let reel = reels[flow], cursor.metadata < reel.metadata.count else { missCount += 1; return nil }
            defer { cursor.metadata += 1 }
            return reel.metadata[cursor.metadata]
        }
    }

    func keep(_ answer: Result<HTTPResponseMessage, TransportFailure>, for request: String) {
        lock.withLock {
            if mode == .recording { reels[flow, default: Reel()].http[request, default: []].append(answer) }
        }
    }

    func keep(_ answer: PartnerAccessResult) {
        lock.withLock { if mode == .recording { reels[flow, default: Reel()].access.append(answer) } }
    }

    func keep(_ answer: Result<PartnerAccountMetadata, PartnerFrameworkError>) {
        lock.withLock { if mode == .recording { reels[flow, default: Reel()].metadata.append(answer) } }
    }
}

/// A transport that answers from a ``ReplayTape`` while it replays, else asks `live`.
struct ReplayingTransport: HTTPTransport {
    let live: any HTTPTransport
    let tape: ReplayTape

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let key = "\(request.method) \(request.url.path)"
        if tape.currentMode == .replaying {
            guard let answer = tape.nextHTTP(for: key) else { throw TransportFailure.other("no recorded response") }
            return try answer.get()
        }
        let answer: Result<HTTPResponseMessage, TransportFailure>
        do {
            answer = .success(try await live.send(request, timeout: timeout))
        } catch {
            answer = .failure(error)
        }
        tape.keep(answer, for: key)
        return try answer.get()
    }
}

/// A partner framework that answers from a ``ReplayTape`` while it replays, else asks
/// the simulated device. Its answers are at hand exactly when the device's are, so the SDK
/// takes the same path live and replayed.
final class ReplayingPartnerFramework: PartnerFramework, @unchecked Sendable {
    let live: SimulatedPartnerFramework
    let tape: ReplayTape

    init(live: SimulatedPartnerFramework, tape: ReplayTape) {
        self.live = live
        self.tape = tape
    }

    func accessStatus(prompt: Bool) async -> PartnerAccessResult {
        if tape.currentMode == .replaying {
            return tape.nextAccess() ?? .error(code: "replayMiss", message: "no recorded answer")
        }
        let answer = await live.accessStatus(prompt: prompt)
        tape.keep(answer)
        return answer
    }

    func accessStatusAtHand() -> PartnerAccessResult? {
        guard live.answersAtHand else { return nil }
        if tape.currentMode == .replaying {
            return tape.nextAccess() ?? .error(code: "replayMiss", message: "no recorded answer")
        }
        guard let answer = live.accessStatusAtHand() else { return nil }
        tape.keep(answer)
        return answer
    }

    func accountMetadataAtHand(_ request: PartnerMetadataRequest) -> Result<
        PartnerAccountMetadata, PartnerFrameworkError
    >? {
        guard live.answersAtHand, !request.isInterruptionAllowed else { return nil }
        if tape.currentMode == .replaying {
            return tape.nextMetadata() ?? .failure(.serviceTemporarilyUnavailable)
        }
        guard let answer = live.accountMetadataAtHand(request) else { return nil }
        tape.keep(answer)
        return answer
    }

    func accountMetadata(_ request: PartnerMetadataRequest) async throws(PartnerFrameworkError)
        -> PartnerAccountMetadata
    {
        if tape.currentMode == .replaying {
            guard let answer = tape.nextMetadata() else { throw PartnerFrameworkError.serviceTemporarilyUnavailable }
            return try answer.get()
        }
        let answer: Result<PartnerAccountMetadata, PartnerFrameworkError>
        do {
            answer = .success(try await live.accountMetadata(request))
        } catch {
            answer = .failure(error)
        }
        tape.keep(answer)
        return try answer.get()
    }
}
