import Foundation

/// Lets one test at a time run a child process. Foundation's `Process` on Linux is not
/// safe to launch from several threads at once (a parallel test run crashed inside
/// `Process.run()`), so every test that starts `accessenabler` holds this gate while its
/// child lives.
actor ChildProcessGate {
    static let shared = ChildProcessGate()

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once no other test holds the gate.
    func withGate<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
