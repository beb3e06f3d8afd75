import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The sandbox of `bench --soak`, in a process of its own (this program again, as
/// `accessenabler sandbox`): the soak reads the resident memory of the app's process alone,
/// not that of a server that keeps every session it opened for a day, as Adobe Pass does.
final class SoakSandboxProcess {
    private let process: Process
    /// Where the sandbox serves.
    let baseURL: URL

    /// Starts `accessenabler sandbox` on a free loopback port and waits (a minute at most)
    /// until it says where it serves.
    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.thisProgram())
        process.arguments = ["sandbox", "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let prefix = "PassSandbox is serving at "
        var text = ""
        let giveUp = Date().addingTimeInterval(60)
        var found: URL?
        while found == nil, Date() < giveUp, process.isRunning {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                found = URL(string: String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces))
            }
        }
        guard let found else {
            process.terminate()
            throw SoakSandboxError(description: "the sandbox process did not say where it serves")
        }
        baseURL = found
        // Keep reading what it prints, so a full pipe never holds it.
        let reader = output.fileHandleForReading
        Thread { while !reader.availableData.isEmpty {} }.start()
    }

    /// Stops the sandbox (Ctrl-C, as a person would) and waits for it to end.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }

    /// The path of this program's executable.
    private static func thisProgram() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The sandbox process of a soak could not be started.
struct SoakSandboxError: Error, CustomStringConvertible {
    let description: String
}
